package fsil.methods.gptree;

import fsil.api.EmbeddingObjective;
import fsil.api.Method;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GP-Tree's backbone objective on a 4-class episode (a 3-node tree): dL/dz and dL/dlog-hyperparameters against
 * central finite differences with the bounds of {@link ViGradientTest}. With the correct bound the differences refit
 * everything (tree, inducing assignments, variational parameters) at every perturbed point, so they check the total
 * derivative; with the authors' bound they hold the fitted variational parameters fixed (the partial gradient that
 * objective's training uses).
 */
class GpTreeObjectiveTest {
    static final int K = 4;
    static final int PER = 6;
    static final int D = 5;

    static EmbeddingObjective.Episode episode(long seed) {
        int[] y = new int[K * PER];
        float[] x = TestSupport.clusters(K, PER, D, 1.0, 3, y);
        double[] z = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            z[i] = x[i];
        }
        return new EmbeddingObjective.Episode(z, D, y, K * PER, K, seed);
    }

    static GpTreeObjective objective(String... kv) {
        Method m = new GpTreeMethod();
        Map<String, String> values = new java.util.HashMap<>(Map.of("inducing", "2", "kmeans_restarts", "5",
                "outputscale", "2.0", "lengthscale", "0.8", "train_vi_tol", "1e-12", "train_vi_steps", "2000"));
        for (int i = 0; i < kv.length; i += 2) {
            values.put(kv[i], kv[i + 1]);
        }
        return (GpTreeObjective) m.objective(m.params(values)).orElseThrow();
    }

    /** Worst relative error |fd - g| / max(1e-4, |fd| + |g|); asserts each entry as ViGradientTest does. */
    private static double compare(double fd, double g, double worst, String what) {
        assertEquals(fd, g, 1e-5 * Math.max(1e-2, Math.abs(fd)) + 1e-7, what);
        return Math.max(worst, Math.abs(fd - g) / Math.max(1e-4, Math.abs(fd) + Math.abs(g)));
    }

    /** Central differences of {@code loss} in every entry of z against {@code grad}; the worst relative error. */
    private static double checkZ(double[] z0, java.util.function.ToDoubleFunction<double[]> loss, double[] grad,
                                 String what) {
        double worst = 0;
        double[] z = z0.clone();
        for (int i = 0; i < z.length; i++) {
            double old = z[i];
            double h = 1e-6 * Math.max(1.0, Math.abs(old));
            z[i] = old + h;
            double up = loss.applyAsDouble(z.clone());
            z[i] = old - h;
            double down = loss.applyAsDouble(z.clone());
            z[i] = old;
            worst = compare((up - down) / (2 * h), grad[i], worst, what + ": z entry " + i);
        }
        return worst;
    }

    private static void totalDerivative(String kernel) {
        GpTreeObjective o = objective("kernel", kernel, "elbo", "wenzel");
        EmbeddingObjective.Episode e = episode(21);
        double[] logHyper = TestSupport.config("kernel", kernel, "outputscale", "2.0", "lengthscale", "0.8")
                .newViKernel().hyperparameters();
        GpTreeObjective.EpisodeFit fit = o.new EpisodeFit(e, logHyper);
        assertEquals(3, fit.nodes.size(), "4 classes, 3 nodes");
        assertTrue(fit.converged, "the variational fit converged (" + fit.passes + " passes)");
        EmbeddingObjective.Training t = o.start(D);
        double[] grad = new double[e.z().length];
        double loss = t.loss(e, grad);
        assertEquals(fit.evaluate(e.z(), false).loss(), loss, 1e-12);
        double worst = checkZ(e.z(), z -> t.loss(new EmbeddingObjective.Episode(z, D, e.labels(), e.supportSize(), K,
                e.seed()), new double[z.length]), grad, kernel);
        double[] dHyper = fit.evaluate(e.z(), true).dHyper();
        for (int h = 0; h < logHyper.length; h++) {
            double[] lh = logHyper.clone();
            lh[h] += 1e-6;
            double up = o.new EpisodeFit(e, lh).evaluate(e.z(), false).loss();
            lh[h] -= 2e-6;
            double down = o.new EpisodeFit(e, lh).evaluate(e.z(), false).loss();
            worst = compare((up - down) / 2e-6, dHyper[h], worst, kernel + ": log hyperparameter " + h);
        }
        System.out.printf("gptree objective, %s, correct bound: loss %.6f, %d passes, %d z entries + %d "
                + "hyperparameters, worst relative error %.2e%n", kernel, loss, fit.passes, grad.length, logHyper.length,
                worst);
        assertTrue(worst < 1e-4, "worst relative error " + worst);
    }

    @Test
    void rbfTotalDerivative() {
        totalDerivative("rbf");
    }

    @Test
    void linearTotalDerivative() {
        totalDerivative("linear");
    }

    @Test
    void maternCodeBoundPartialDerivative() {
        GpTreeObjective o = objective("kernel", "matern52", "elbo", "code");
        EmbeddingObjective.Episode e = episode(5);
        double[] logHyper = {Math.log(2.0), Math.log(0.8)};
        GpTreeObjective.EpisodeFit fit = o.new EpisodeFit(e, logHyper);
        GpTreeObjective.Value v = fit.evaluate(e.z(), true);
        double worst = checkZ(e.z(), z -> fit.evaluate(z, false).loss(), v.dz(), "matern52/code");
        System.out.printf("gptree objective, matern52, the authors' bound, variational parameters fixed: loss %.6f,"
                + " worst relative error %.2e%n", v.loss(), worst);
        assertTrue(worst < 1e-4, "worst relative error " + worst);
    }

    @Test
    void deterministicAndTrainsItsHyperparameters() {
        GpTreeObjective o = objective();
        assertEquals(new EmbeddingObjective.Sampling(16, 8, 0), objective("inducing", "5").sampling());
        assertTrue(o.describe().startsWith("tree=kmeans;kmeans_restarts=5;kernel=rbf;"), o.describe());
        assertTrue(o.describe().contains("elbo=wenzel"), o.describe());
        EmbeddingObjective.Episode e = episode(9);
        EmbeddingObjective.Training a = o.start(D);
        EmbeddingObjective.Training b = o.start(D);
        double[] ga = new double[e.z().length];
        double[] gb = new double[e.z().length];
        assertEquals(a.loss(e, ga), b.loss(e, gb));
        assertArrayEquals(ga, gb);
        Map<String, Double> before = a.state();
        assertEquals(2.0, before.get("outputscale"), 1e-12);
        assertThrows(IllegalStateException.class, () -> o.start(D).update());
        a.update();
        assertNotEquals(before.get("log_outputscale"), a.state().get("log_outputscale"));
        a.restore(before);
        assertEquals(before, a.state());
        assertEquals(null, a.predict(e.z(), e.labels(), e.z(), D, K, 1), "validation by nearest class mean");
    }

    @Test
    void anEmbeddingAtZeroIsNotScored() {
        EmbeddingObjective.Episode e = episode(9);
        double[] z = e.z().clone();
        java.util.Arrays.fill(z, 0, D, 0.0);
        double loss = objective().start(D).loss(new EmbeddingObjective.Episode(z, D, e.labels(), e.supportSize(), K,
                e.seed()), new double[z.length]);
        assertTrue(Double.isNaN(loss), "no direction for the kernel: " + loss);
    }
}
