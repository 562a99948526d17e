package fsil.app.objective;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import fsil.api.EmbeddingObjective;
import fsil.api.Method;
import fsil.api.Registry;
import fsil.backbones.djl.Architecture;
import fsil.backbones.djl.DjlRuntime;
import fsil.backbones.djl.GradientInjection;
import fsil.backbones.djl.Networks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.DoubleBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole chain of a backbone trained with a method's objective, in float64: the production conv4 ({@link Networks},
 * at 1/8 width, which the channel rounding makes 16 filters: 4 x [conv 3x3, batch norm in training mode, ReLU, 2x2 max
 * pool] on 8x8 images, 16 features) embeds one episode; a method's objective (lsgp's or GP-Tree's, found by id, as
 * {@code conv4[objective=lsgp(...)]} finds it) computes the loss and dL/dz in Java; {@link GradientInjection#objective}
 * back-propagates it through PyTorch. The resulting gradient equals central finite differences of the same loss in
 * every weight of the first convolution, every bias and batch-norm weight, and every fourth weight of the three larger
 * convolutions (2,064 of 7,248: each check stays under 20 s).
 * The objective, the network and the data are real; nothing is mocked. This test sits in app, the module that has
 * both backbones-djl and the methods on its class path (neither depends on the other).
 */
class ObjectiveChainTest {
    static final int D = 16;

    @TempDir
    Path cache;

    @ParameterizedTest(name = "lsgp loss={0} tau={1}")
    @CsvSource({"ml, 0.2", "pl, 1"})
    void chainGradientMatchesFiniteDifferences(String loss, String tau) {
        Method lsgp = Registry.discover("method", Method.class, Method::id).get("lsgp");
        EmbeddingObjective objective = lsgp.objective(lsgp.params(Map.of("loss", loss, "tau", tau,
                "train_steps", "2", "pl_samples", "20"))).orElseThrow();
        check(objective, "lsgp " + loss + " tau=" + tau, 3, 2, 2, 4);
    }

    /**
     * GP-Tree's objective on a 4-class episode (a 3-node tree) of 3 samples per class, no queries (all rows train the
     * nodes); 2 inducing inputs per class, so that k-means averages rows into them; the variational fit converged to
     * 1e-12 at every point (the gradient is the total derivative only at the fitted optimum: the method's README).
     */
    @Test
    void gptreeChainGradientMatchesFiniteDifferences() {
        Method gptree = Registry.discover("method", Method.class, Method::id).get("gptree");
        EmbeddingObjective objective = gptree.objective(gptree.params(Map.of("inducing", "2", "kmeans_restarts", "5",
                "train_vi_tol", "1e-12", "train_vi_steps", "2000"))).orElseThrow();
        check(objective, "gptree (rbf, correct bound)", 4, 3, 0, 4);
    }

    /**
     * Central differences of the Java loss in the network's weights against the back-propagated gradient, for an
     * episode of {@code ways} classes with {@code shots} support and {@code queries} query rows each; weight arrays
     * of more than 1,000 entries are checked at every {@code every}-th entry.
     */
    private void check(EmbeddingObjective objective, String what, int ways, int shots, int queries, int every) {
        long t0 = System.nanoTime();
        Engine engine = DjlRuntime.engine(cache);
        engine.setRandomSeed(11);
        // one intra-op thread, as the backbones train by default: on a loaded 2-core machine two threads made each
        // tiny forward pass 20 times slower
        ai.djl.pytorch.jni.JniUtils.setNumThreads(1);
        int n = ways * (shots + queries);
        int ns = ways * shots;
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            labels[i] = i < ns ? i / shots : (i - ns) % ways;
        }
        try (NDManager m = engine.newBaseManager()) {
            Block net = Networks.features(new Architecture(Architecture.Kind.CONV4, 1.0 / 8), 1, 8, 8);
            Shape shape = new Shape(n, 1, 8, 8);
            net.initialize(m, DataType.FLOAT64, shape);
            Random r = new Random(5);
            double[] xs = new double[n * 64];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = r.nextGaussian() + 0.5 * labels[i / 64]; // classes differ a little
            }
            NDArray x = m.create(xs, shape);
            ParameterStore ps = new ParameterStore(m, false);
            for (Pair<String, Parameter> p : net.getParameters()) {
                if (p.getValue().requiresGradient()) {
                    p.getValue().getArray().setRequiresGradient(true);
                }
            }
            EmbeddingObjective.Training training = objective.start(D);
            long seed = 99;
            GradientInjection.zeroGradients(net);
            double value;
            try (GradientCollector gc = engine.newGradientCollector()) {
                NDArray z = net.forward(ps, new NDList(x), true).singletonOrThrow();
                assertEquals(DataType.FLOAT64, z.getDataType());
                assertEquals(new Shape(n, D), z.getShape());
                double[] zs = z.toDoubleArray();
                for (int i = 0; i < n; i++) {
                    double norm = 0;
                    for (int j = 0; j < D; j++) {
                        norm += zs[i * D + j] * zs[i * D + j];
                    }
                    // a ReLU network can embed an image at 0, where the cosine kernel is undefined
                    assertTrue(norm > 1e-3, "embedding " + i + " is not 0");
                }
                value = GradientInjection.objective(gc, z, training, labels, ns, ways, seed);
            }
            assertTrue(Double.isFinite(value), "loss " + value);
            double eps = 1e-6;
            double worst = 0;
            double worstAbs = 0;
            int checked = 0;
            for (Pair<String, Parameter> p : net.getParameters()) {
                if (!p.getValue().requiresGradient()) {
                    continue; // batch norm's running statistics
                }
                NDArray w = p.getValue().getArray();
                double[] analytic = w.getGradient().toDoubleArray();
                double[] values = w.toDoubleArray();
                for (int i = 0; i < values.length; i += values.length > 1000 ? every : 1) {
                    double keep = values[i];
                    values[i] = keep + eps;
                    w.set(DoubleBuffer.wrap(values));
                    double up = loss(net, ps, x, training, labels, ns, ways, seed);
                    values[i] = keep - eps;
                    w.set(DoubleBuffer.wrap(values));
                    double down = loss(net, ps, x, training, labels, ns, ways, seed);
                    values[i] = keep;
                    w.set(DoubleBuffer.wrap(values));
                    double numeric = (up - down) / (2 * eps);
                    // the bound of lsgp's EndToEndGradientTest: 1e-6 relative for derivatives above 1, 1e-6 absolute
                    // below (central differences at h = 1e-6 carry about 1e-10 / h of rounding error in a loss of 1)
                    double bound = 1e-6 * Math.max(1, Math.abs(numeric)) + 1e-9;
                    worst = Math.max(worst, Math.abs(numeric - analytic[i]) / bound);
                    worstAbs = Math.max(worstAbs, Math.abs(numeric - analytic[i]));
                    checked++;
                }
            }
            // 4 x (conv weights + bias, batch norm gamma + beta): 1*16*9+16+32 + 3*(ceil(16*16*9/every)+16+32)
            assertEquals(192 + 3 * ((2304 + every - 1) / every + 48), checked, "the weights checked");
            System.out.printf("%s: loss %.6f, %d weights, worst |analytic - numeric| %.2e (%.3f x the bound), %.1f s%n",
                    what, value, checked, worstAbs, worst, (System.nanoTime() - t0) / 1e9);
            assertTrue(worst <= 1, "worst error " + worstAbs + ", " + worst + " x the bound");
        }
    }

    /** The Java loss of the network's embeddings (batch norm in training mode, as when the gradient was taken). */
    private static double loss(Block net, ParameterStore ps, NDArray x, EmbeddingObjective.Training training,
                               int[] labels, int supportSize, int ways, long seed) {
        double[] z;
        try (NDManager sub = x.getManager().newSubManager()) {
            NDArray in = x.duplicate();
            in.attach(sub);
            NDArray out = net.forward(ps, new NDList(in), true).singletonOrThrow();
            out.attach(sub);
            z = out.toDoubleArray();
        }
        return training.loss(new EmbeddingObjective.Episode(z, D, labels, supportSize, ways, seed),
                new double[z.length]);
    }
}
