# hwprof shipped trace input: PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl perl_workload.pl
# A small deterministic workload: word counting with regular expressions,
# sorting with a comparison block, recursion, a sieve and string building.
# (no 'use strict'/'use warnings': loading warnings.pm alone costs 9 M instructions)

my $text = <<'END';
The quick brown fox jumps over the lazy dog. Pack my box with five dozen
liquor jugs. How vexingly quick daft zebras jump! Sphinx of black quartz,
judge my vow. The five boxing wizards jump quickly. Jackdaws love my big
sphinx of quartz. Waltz, bad nymph, for quick jigs vex.
END

my %freq;
for my $round (1 .. 2) {
    for my $w ($text =~ /([A-Za-z]+)/g) {
        $freq{lc $w} += $round;
    }
}
my @words = sort { $freq{$b} <=> $freq{$a} or $a cmp $b } keys %freq;

sub fib { my $n = shift; return $n < 2 ? $n : fib($n - 1) + fib($n - 2) }

sub primes {
    my $limit = shift;
    my (@sieve, @out);
    for my $i (2 .. $limit) {
        next if $sieve[$i];
        push @out, $i;
        for (my $j = $i * $i; $j <= $limit; $j += $i) { $sieve[$j] = 1 }
    }
    return @out;
}

my @parts;
for my $i (1 .. 60) {
    push @parts, sprintf("%05d:%s", $i * 37 % 1000, $words[$i % @words]);
}
my $joined = join(",", @parts);
(my $zeroed = $joined) =~ s/o/0/g;
my $count = () = $joined =~ /o/g;

my @p = primes(500);
print join("\t", scalar(@words), $words[0], $freq{$words[0]}, fib(10), scalar(@p), $p[-1],
           length($joined), $count), "\n";
