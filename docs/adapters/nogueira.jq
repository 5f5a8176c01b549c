# jq -c --unbuffered -f nogueira.jq: Nogueira's estimator behind propstab's JSON lines
# (jq reads one request per line and writes one value per line)
.Z as $Z | ($Z | length) as $M | ($Z[0] | length) as $d
| ([$Z[][]] | add / $M / $d) as $k
| if $k == 0 or $k == 1 then null                        # undefined (0/0)
  else ([range($d) as $f | [$Z[][$f]] | add / $M
         | . * (1 - .) * $M / ($M - 1)] | add / $d) as $s
  | 1 - $s / ($k * (1 - $k))
  end
