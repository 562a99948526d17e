package fsil.methods.lsgp;

import fsil.api.EmbeddingObjective;
import fsil.api.Params;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * lsgp's {@link EmbeddingObjective} (what {@code conv4[objective=lsgp(...)]} trains with): the loss of an episode given
 * as the SPI lays it out, its gradient in the embeddings and in the log outputscale against central finite
 * differences (the bound of {@link EndToEndGradientTest}), a deterministic loss for an episode seed, an Adam step of the outputscale against its gradient, and
 * valid class probabilities from the test-time inference that scores validation episodes.
 */
class LsgpObjectiveTest {
    static final int WAYS = 3;
    static final int SHOTS = 2;
    static final int QUERIES = 3;
    static final int D = 5;

    static EmbeddingObjective objective(String loss, String tau) {
        LsgpMethod m = new LsgpMethod();
        Params p = m.params(Map.of("loss", loss, "tau", tau, "train_ways", "" + WAYS, "train_shots", "" + SHOTS,
                "train_queries", "" + QUERIES, "pl_samples", "30"));
        return m.objective(p).orElseThrow();
    }

    static EmbeddingObjective.Episode episode(double[] z, long seed) {
        int n = WAYS * (SHOTS + QUERIES);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i < WAYS * SHOTS ? i / SHOTS : (i - WAYS * SHOTS) % WAYS;
        }
        return new EmbeddingObjective.Episode(z, D, y, WAYS * SHOTS, WAYS, seed);
    }

    static double[] points(long seed) {
        Random r = new Random(seed);
        int n = WAYS * (SHOTS + QUERIES);
        double[] z = new double[n * D];
        for (int i = 0; i < z.length; i++) {
            z[i] = r.nextGaussian();
        }
        return z;
    }

    @Test
    void describesItsSettingsAndEpisodes() {
        EmbeddingObjective o = objective("pl", "0.2");
        assertEquals(new EmbeddingObjective.Sampling(WAYS, SHOTS, QUERIES), o.sampling());
        assertTrue(o.describe().startsWith("loss=pl;tau=0.2;"), o.describe());
        assertTrue(o.describe().contains("pl_samples=30"), o.describe());
        assertNotEquals(o.describe(), objective("ml", "0.2").describe());
        assertTrue(new LsgpMethod().objective(new LsgpMethod().defaults()).isPresent());
    }

    @ParameterizedTest(name = "loss={0} tau={1}")
    @CsvSource({"ml, 0.2", "ml, 1", "pl, 0.2", "pl, 1"})
    void gradientsMatchFiniteDifferences(String loss, String tau) {
        EmbeddingObjective.Training t = objective(loss, tau).start(D);
        double[] z = points(3);
        double[] g = new double[z.length];
        double value = t.loss(episode(z, 17), g);
        assertTrue(Double.isFinite(value));
        double[] again = new double[z.length];
        assertEquals(value, t.loss(episode(z.clone(), 17), again), 0.0, "same episode seed, same loss");
        if (loss.equals("pl")) {
            assertNotEquals(value, t.loss(episode(z.clone(), 18), new double[z.length]), "other draws");
        }
        double eps = 1e-6;
        double worst = 0;
        double[] scratch = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            double[] up = z.clone();
            up[i] += eps;
            double[] down = z.clone();
            down[i] -= eps;
            double numeric = (t.loss(episode(up, 17), scratch) - t.loss(episode(down, 17), scratch)) / (2 * eps);
            // the bound of EndToEndGradientTest: 1e-6 relative for large derivatives, about 1e-6 absolute otherwise
            double bound = 1e-6 * Math.max(1, Math.abs(numeric)) + 1e-9;
            worst = Math.max(worst, Math.abs(numeric - g[i]) / bound);
        }
        assertTrue(worst <= 1, "dL/dz: worst error " + worst + " x the bound");
        // the kernel hyperparameter: dL/dlog s by finite differences, and Adam's first step goes against it
        Map<String, Double> s0 = t.state();
        double logS = s0.get("log_outputscale");
        t.restore(Map.of("log_outputscale", logS + eps));
        double up = t.loss(episode(z, 17), scratch);
        t.restore(Map.of("log_outputscale", logS - eps));
        double down = t.loss(episode(z, 17), scratch);
        t.restore(s0);
        double dLogS = (up - down) / (2 * eps);
        assertTrue(Math.abs(dLogS) > 1e-6, "the outputscale matters: " + dLogS);
        t.loss(episode(z, 17), scratch);
        t.update();
        double moved = t.state().get("log_outputscale") - logS;
        assertEquals(-Math.signum(dLogS) * 1e-4, moved, 1e-7, "Adam's first step: kernel_lr against the gradient");
    }

    @Test
    void predictsProbabilitiesOfTheQueries() {
        EmbeddingObjective.Training t = objective("ml", "0.2").start(D);
        double[] z = points(4);
        int ns = WAYS * SHOTS;
        double[] support = java.util.Arrays.copyOf(z, ns * D);
        double[] queries = java.util.Arrays.copyOfRange(z, ns * D, z.length);
        int[] ys = java.util.Arrays.copyOf(episode(z, 0).labels(), ns);
        double[] p = t.predict(support, ys, queries, D, WAYS, 5);
        assertEquals(WAYS * QUERIES * WAYS, p.length);
        for (int q = 0; q < WAYS * QUERIES; q++) {
            double sum = 0;
            for (int c = 0; c < WAYS; c++) {
                assertTrue(p[q * WAYS + c] >= 0);
                sum += p[q * WAYS + c];
            }
            assertEquals(1, sum, 1e-6);
        }
    }
}
