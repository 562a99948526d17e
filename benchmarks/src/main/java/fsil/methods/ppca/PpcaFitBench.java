package fsil.methods.ppca;

import fsil.api.LabeledData;
import fsil.api.SessionContext;
import fsil.core.bench.MicroBenchmark;
import fsil.core.synthetic.GaussianClasses;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Fitting PPCA classes on one thread (600 samples per class, d = 640, q = 20 by default; the classes of one
 * {@code learn()} call) with the default solver {@code auto} (randomized block Krylov here) against the full d x d
 * eigendecomposition ({@code full}, the reference) and the exact n x n Gram path ({@code gram}) in the same run.
 * The classes are the power-law model ({@link ScaleBenchmark.Model}): a mean and 64 random directions
 * with variances i^-alpha plus noise, which makes the gap at q = 20 small (5% for alpha = 1), as in CNN features.
 * Data generation is not timed. The setup checks that auto and gram score held-out queries within 1e-6 (relative)
 * of full and prints the difference and auto's solver diagnostics. Scores are ms per class.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PpcaFitBench extends MicroBenchmark {
    /** Classes fitted per learn() call (and per invocation). */
    static final int CLASSES = 5;

    @Param("640")
    public int dim;
    @Param("20")
    public int q;
    @Param("600")
    public int perClass;
    @Param("1.0")
    public double alpha;

    private LabeledData data;

    @Setup
    public void setup() {
        GaussianClasses gen = ScaleBenchmark.Model.POWER_LAW.build(dim, 64, 1.0, 0.05, alpha, 1.0, 1);
        data = gen.classes(0, CLASSES, perClass, 0);
        // the three paths give the same model: scores of held-out queries within 1e-6 of the full decomposition's
        LabeledData test = gen.classes(0, CLASSES, 50, 1);
        PpcaSession full = session("full");
        double worst = 0;
        for (String solver : new String[]{"auto", "gram"}) {
            PpcaSession s = session(solver);
            worst = Math.max(worst, maxRelativeDifference(s, full, test));
            if (solver.equals("auto")) {
                System.out.println("# auto: " + s.diagnostics());
            }
        }
        System.out.printf("# max relative score difference to full (auto and gram, %d queries x %d classes): %.2e%n",
                test.size(), CLASSES, worst);
        if (!(worst < 1e-6)) {
            throw new IllegalStateException("auto or gram differs from full by " + worst);
        }
    }

    private PpcaSession session(String solver) {
        PpcaSession s = BenchSupport.session(Map.of("q", Integer.toString(q), "solver", solver), dim, 1,
                SessionContext.DIRECT);
        s.learn(data);
        return s;
    }

    private long fit(String solver) {
        return session(solver).memoryBytes();
    }

    /** Max over the test queries and the classes of {@code ref} of |score_a - score_ref| / score_ref. */
    static double maxRelativeDifference(PpcaSession a, PpcaSession ref, LabeledData test) {
        double worst = 0;
        int d = test.dimension();
        double[] x = new double[test.size() * d];
        float[] src = test.features().rawData();
        for (int i = 0; i < x.length; i++) {
            x[i] = src[i];
        }
        double[] sa = new double[test.size()];
        double[] sr = new double[test.size()];
        double[] buf = new double[2 * d];
        for (int c : ref.classes()) {
            a.model(c).scoreBlock(x, test.size(), buf, false, sa, 0, 1);
            ref.model(c).scoreBlock(x, test.size(), buf, false, sr, 0, 1);
            for (int i = 0; i < sa.length; i++) {
                worst = Math.max(worst, Math.abs(sa[i] - sr[i]) / Math.abs(sr[i]));
            }
        }
        return worst;
    }

    /** The default solver: randomized block Krylov with an exact fallback (or Gram when n < d). */
    @Benchmark
    @OperationsPerInvocation(CLASSES)
    public long auto() {
        return fit("auto");
    }

    /** Reference: the full d x d eigendecomposition. */
    @Benchmark
    @OperationsPerInvocation(CLASSES)
    public long fullReference() {
        return fit("full");
    }

    /** The exact eigendecomposition of the n x n Gram matrix. */
    @Benchmark
    @OperationsPerInvocation(CLASSES)
    public long gram() {
        return fit("gram");
    }
}
