% octave --no-gui --quiet nogueira.m: Nogueira's estimator behind propstab's JSON lines
1;                                           % a script file (Octave >= 7: jsondecode)
function v = nogueira(Z, options)            % your implementation; Z: the M x d 0/1 matrix
  k = mean(sum(Z, 2)) / columns(Z);
  if k == 0 || k == 1, v = NaN; else v = 1 - mean(var(Z)) / (k * (1 - k)); end
end
while ischar(line = fgetl(stdin))            % one request per line
  req = jsondecode(line);
  try v = nogueira(double(req.Z), req.options); catch e, v = struct('error', e.message); end
  if isstruct(v), disp(jsonencode(v)); elseif isnan(v), disp('null'); else printf('%.17g\n', v); end
  fflush(stdout);
end
