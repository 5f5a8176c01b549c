# perl nogueira.pl: Nogueira's estimator behind propstab's JSON-lines protocol (core JSON::PP)
use strict; use warnings; use JSON::PP; $| = 1;
sub nogueira {                                # your implementation; $Z: the M x d 0/1 rows
    my ($Z, $options) = @_; my ($M, $d) = (scalar @$Z, scalar @{$Z->[0]}); my ($k, $s) = (0, 0);
    $k += $_ for map { @$_ } @$Z; $k /= $M * $d;
    return undef if $k == 0 || $k == 1;        # undefined (0/0): answered as null
    for my $f (0 .. $d - 1) { my $p = 0; $p += $_->[$f] for @$Z; $p /= $M; $s += $p * (1 - $p) * $M / ($M - 1) }
    return 1 - $s / $d / ($k * (1 - $k));
}
while (my $line = <STDIN>) {                  # one request per line
    my $req = decode_json($line); my $out = eval { nogueira($req->{Z}, $req->{options}) };
    print $@ ? encode_json({ error => "$@" }) : defined $out ? sprintf("%.17g", $out) : "null", "\n";
}
