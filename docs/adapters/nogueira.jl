# julia nogueira.jl: Nogueira's estimator behind propstab's JSON-lines protocol (JSON.jl)
using JSON, Statistics
function nogueira(Z, options)                 # your implementation; Z: the M x d 0/1 matrix
    k = mean(sum(Z, dims=2)) / size(Z, 2)
    (k == 0 || k == 1) && return nothing      # undefined (0/0): answered as null
    1 - mean(var(Z, dims=1)) / (k * (1 - k))
end
for line in eachline(stdin)                   # one request per line
    req = JSON.parse(line)
    Z = permutedims(reduce(hcat, [Float64.(r) for r in req["Z"]]))
    out = try nogueira(Z, req["options"]) catch e; Dict("error" => sprint(showerror, e)) end
    println(JSON.json(out)); flush(stdout)
end
