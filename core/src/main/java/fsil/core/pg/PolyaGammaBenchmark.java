package fsil.core.pg;

import fsil.api.InvalidParameterException;
import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * PG(1, c) draws per second on one thread, against two references measured in the same run: the truncated
 * 200-term series sampler (what an approximate implementation costs) and Commons RNG's Gamma(1, 1) sampler
 * (the cost floor of one standard random variate). Tilts c are drawn from N(0, 3^2), the range a Gibbs sampler
 * with outputscale ~8 sees, so the per-c proposal constants are recomputed at every draw.
 */
public final class PolyaGammaBenchmark implements Benchmark {
    private static final Set<String> KEYS = Set.of("draws", "seed");

    @Override
    public String id() {
        return "pg-sampler";
    }

    @Override
    public String description() {
        return "exact PG(1,c) draws/s vs the 200-term series sampler and a Commons RNG Gamma draw (options: draws, seed)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        for (String k : options.keySet()) {
            if (!KEYS.contains(k)) {
                throw new InvalidParameterException("pg-sampler: unknown option '" + k + "'; known: " + KEYS);
            }
        }
        int draws = Integer.parseInt(options.getOrDefault("draws", "2000000"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        if (draws < 100) {
            throw new InvalidParameterException("pg-sampler: draws must be >= 100, got " + draws);
        }
        UniformRandomProvider crng = RandomStreams.create(seed);
        ContinuousSampler normal = ZigguratSampler.NormalizedGaussian.of(crng);
        double[] c = new double[draws];
        for (int i = 0; i < draws; i++) {
            c[i] = 3.0 * normal.sample();
        }
        double[] outArr = new double[draws];
        PolyaGammaSampler exact = new PolyaGammaSampler(RandomStreams.create(seed + 1));
        double tExact = BenchTimer.medianSeconds(1, 5, () -> {
            exact.sample(c, outArr);
            return Double.doubleToLongBits(outArr[draws - 1]);
        });
        double tFixed = BenchTimer.medianSeconds(1, 5, () -> {
            double s = 0;
            for (int i = 0; i < draws; i++) {
                s += exact.sample(1.0);
            }
            return Double.doubleToLongBits(s);
        });
        int seriesDraws = Math.max(100, draws / 50);
        PolyaGammaSeriesSampler series = new PolyaGammaSeriesSampler(RandomStreams.create(seed + 2), 200);
        double tSeries = BenchTimer.medianSeconds(1, 3, () -> {
            double s = 0;
            for (int i = 0; i < seriesDraws; i++) {
                s += series.sample(c[i]);
            }
            return Double.doubleToLongBits(s);
        }) * draws / seriesDraws;
        ContinuousSampler gamma = AhrensDieterMarsagliaTsangGammaSampler.of(RandomStreams.create(seed + 3), 1.0, 1.0);
        double tGamma = BenchTimer.medianSeconds(1, 5, () -> {
            double s = 0;
            for (int i = 0; i < draws; i++) {
                s += gamma.sample();
            }
            return Double.doubleToLongBits(s);
        });
        out.printf(Locale.ROOT, "pg-sampler: %d draws, one thread, c ~ N(0, 3^2)%n", draws);
        out.printf(Locale.ROOT, "%-40s %14s %10s %12s%n", "sampler", "draws/s", "ns/draw", "time ratio");
        row(out, "exact PG(1,c), c varying", draws, tExact, tExact);
        row(out, "exact PG(1,c), c = 1 fixed", draws, tFixed, tExact);
        row(out, "series PG(1,c), 200 terms (reference)", draws, tSeries, tExact);
        row(out, "Commons RNG Gamma(1,1) (reference)", draws, tGamma, tExact);
        out.printf(Locale.ROOT, "exact sampler is %.1fx faster than the 200-term series and costs %.1f Gamma draws; "
                + "target >= 2e6 draws/s: %s%n", tSeries / tExact, tExact / tGamma, draws / tExact >= 2e6 ? "met" : "NOT met");
    }

    private static void row(PrintStream out, String name, int draws, double seconds, double ref) {
        out.printf(Locale.ROOT, "%-40s %14.3e %10.1f %12.2f%n", name, draws / seconds, 1e9 * seconds / draws, seconds / ref);
    }
}
