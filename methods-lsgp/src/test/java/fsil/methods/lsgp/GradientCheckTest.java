package fsil.methods.lsgp;

import fsil.core.gp.CosineKernel;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.function.ToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Central finite differences of the meta-training losses (the objectives actually optimised) against their
 * reverse-mode gradients, with respect to the embedded points and the log outputscale.
 */
class GradientCheckTest {

    static DMatrixRMaj randomPoints(int n, int d, long seed, double shift) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        DMatrixRMaj z = new DMatrixRMaj(n, d);
        for (int i = 0; i < z.data.length; i++) {
            z.data[i] = g.sample() + shift;
        }
        return z;
    }

    static int[] labels(int n, int numClasses) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % numClasses;
        }
        return y;
    }

    /** max |analytic - numeric| / (|numeric| + scale) over a few coordinates, and over log s. */
    static void check(DMatrixRMaj z, DMatrixRMaj dz, double dLogS, CosineKernel kernel,
                      ToDoubleFunction<DMatrixRMaj> loss, double tol) {
        double h = 1e-5;
        double scale = 0;
        for (double v : dz.data) {
            scale = Math.max(scale, Math.abs(v));
        }
        int[] coords = {0, 1, z.data.length / 3, z.data.length / 2, z.data.length - 1};
        for (int idx : coords) {
            DMatrixRMaj zp = z.copy();
            DMatrixRMaj zm = z.copy();
            zp.data[idx] += h;
            zm.data[idx] -= h;
            double num = (loss.applyAsDouble(zp) - loss.applyAsDouble(zm)) / (2 * h);
            assertEquals(num, dz.data[idx], tol * (Math.abs(num) + scale), "dL/dz at " + idx);
        }
        double logS = kernel.hyperparameters()[0];
        kernel.setHyperparameters(new double[]{logS + h});
        double lp = loss.applyAsDouble(z);
        kernel.setHyperparameters(new double[]{logS - h});
        double lm = loss.applyAsDouble(z);
        kernel.setHyperparameters(new double[]{logS});
        double num = (lp - lm) / (2 * h);
        assertEquals(num, dLogS, tol * (Math.abs(num) + 1e-8), "dL/dlog s");
        assertTrue(Double.isFinite(dLogS));
    }

    @ParameterizedTest
    @CsvSource({"0.2, 0.0, 2, CORRECT", "0.5, -2.0, 3, CORRECT", "1.0, 0.0, 1, AUTHORS", "0.2, 0.0, 6, AUTHORS",
            "0.2, -5.0, 4, CORRECT"})
    void mlGradientMatchesFiniteDifferences(double tau, double mean, int steps, ElboForm form) {
        int numClasses = 3;
        DMatrixRMaj z = randomPoints(9, 4, 11, 0.3);
        int[] y = labels(9, numClasses);
        CosineKernel kernel = new CosineKernel(0.7);
        EpisodeObjective.Value v = EpisodeObjective.ml(kernel, z, y, numClasses, tau, mean, steps, form);
        check(z, v.dz(), v.dLogOutputscale(), kernel,
                zz -> EpisodeObjective.ml(kernel, zz, y, numClasses, tau, mean, steps, form).loss(), 1e-5);
    }

    @ParameterizedTest
    @CsvSource({"0.2, 0.0, 2", "0.5, -2.0, 3", "1.0, 0.0, 1"})
    void plGradientMatchesFiniteDifferences(double tau, double mean, int steps) {
        int numClasses = 3;
        DMatrixRMaj zs = randomPoints(6, 4, 21, 0.3);
        DMatrixRMaj zq = randomPoints(5, 4, 22, 0.3);
        int[] ys = labels(6, numClasses);
        int[] yq = labels(5, numClasses);
        double[] eps = new double[40 * numClasses];
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(5));
        for (int i = 0; i < eps.length; i++) {
            eps[i] = g.sample();
        }
        CosineKernel kernel = new CosineKernel(0.7);
        EpisodeObjective.Value v = EpisodeObjective.pl(kernel, zs, ys, zq, yq, numClasses, tau, mean, steps, eps);
        DMatrixRMaj all = new DMatrixRMaj(11, 4);
        System.arraycopy(zs.data, 0, all.data, 0, 24);
        System.arraycopy(zq.data, 0, all.data, 24, 20);
        check(all, v.dz(), v.dLogOutputscale(), kernel, zz -> {
            DMatrixRMaj a = new DMatrixRMaj(6, 4);
            DMatrixRMaj b = new DMatrixRMaj(5, 4);
            System.arraycopy(zz.data, 0, a.data, 0, 24);
            System.arraycopy(zz.data, 24, b.data, 0, 20);
            return EpisodeObjective.pl(kernel, a, ys, b, yq, numClasses, tau, mean, steps, eps).loss();
        }, 1e-5);
    }
}
