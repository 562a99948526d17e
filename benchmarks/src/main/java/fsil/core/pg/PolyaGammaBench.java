package fsil.core.pg;

import fsil.core.bench.MicroBenchmark;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * One PG(1, c) draw of the exact sampler on one thread, with tilts c ~ N(0, 3^2) (the range a Gibbs sampler with
 * outputscale ~8 sees, so the per-c proposal constants are recomputed at every draw) and with c = 1 fixed, against
 * two references: the truncated 200-term series sampler (what an approximate implementation costs) and Commons
 * RNG's Gamma(1, 1) sampler (the cost floor of one standard random variate). Scores are ns per draw.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PolyaGammaBench extends MicroBenchmark {
    /** Draws per invocation (the tilts array is reused). */
    static final int DRAWS = 4096;

    private double[] c;
    private double[] out;
    private PolyaGammaSampler exact;
    private PolyaGammaSeriesSampler series;
    private ContinuousSampler gamma;

    @Setup
    public void setup() {
        ContinuousSampler normal = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(1));
        c = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            c[i] = 3.0 * normal.sample();
        }
        out = new double[DRAWS];
        exact = new PolyaGammaSampler(RandomStreams.create(2));
        series = new PolyaGammaSeriesSampler(RandomStreams.create(3), 200);
        gamma = AhrensDieterMarsagliaTsangGammaSampler.of(RandomStreams.create(4), 1.0, 1.0);
    }

    /** The exact sampler, c varying from draw to draw (the measured quantity). */
    @Benchmark
    @OperationsPerInvocation(DRAWS)
    public double[] exactVaryingC() {
        exact.sample(c, out);
        return out;
    }

    /** The exact sampler with c = 1 fixed. */
    @Benchmark
    @OperationsPerInvocation(DRAWS)
    public double exactFixedC() {
        double s = 0;
        for (int i = 0; i < DRAWS; i++) {
            s += exact.sample(1.0);
        }
        return s;
    }

    /** Reference: the 200-term truncated series sampler on the same tilts. */
    @Benchmark
    @OperationsPerInvocation(DRAWS)
    public double series200Reference() {
        double s = 0;
        for (int i = 0; i < DRAWS; i++) {
            s += series.sample(c[i]);
        }
        return s;
    }

    /** Reference: one Commons RNG Gamma(1, 1) draw. */
    @Benchmark
    @OperationsPerInvocation(DRAWS)
    public double gammaReference() {
        double s = 0;
        for (int i = 0; i < DRAWS; i++) {
            s += gamma.sample();
        }
        return s;
    }
}
