package fsil.methods.lsgp;

import fsil.api.LabeledData;
import fsil.testkit.ToyData;
import fsil.core.gp.CosineKernel;
import fsil.core.nn.Mlp;
import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The meta-training loss of one episode as a function of the weights of the residual feature map, g(x) = x + mlp(x):
 * the gradient the trainer hands to Adam (loss -&gt; dL/dz -&gt; MLP backward) against central finite differences.
 */
class EndToEndGradientTest {

    static double loss(Mlp mlp, double[] x, int n, int d, int[] y, boolean pl, Mlp.Batch b, double[] eps) {
        DMatrixRMaj z = embed(mlp, x, n, d, b);
        CosineKernel k = new CosineKernel(0.8);
        if (!pl) {
            return EpisodeObjective.ml(k, z, y, 3, 0.3, 0.0, 2, ElboForm.CORRECT).loss();
        }
        return plValue(k, z, y, eps).loss();
    }

    static EpisodeObjective.Value plValue(CosineKernel k, DMatrixRMaj z, int[] y, double[] eps) {
        int ns = 6;
        int d = z.numCols;
        DMatrixRMaj zs = new DMatrixRMaj(ns, d);
        DMatrixRMaj zq = new DMatrixRMaj(z.numRows - ns, d);
        System.arraycopy(z.data, 0, zs.data, 0, ns * d);
        System.arraycopy(z.data, ns * d, zq.data, 0, zq.data.length);
        int[] ys = java.util.Arrays.copyOfRange(y, 0, ns);
        int[] yq = java.util.Arrays.copyOfRange(y, ns, y.length);
        return EpisodeObjective.pl(k, zs, ys, zq, yq, 3, 0.3, 0.0, 2, eps);
    }

    static DMatrixRMaj embed(Mlp mlp, double[] x, int n, int d, Mlp.Batch b) {
        b.resize(n);
        System.arraycopy(x, 0, b.input(), 0, n * d);
        mlp.forward(b);
        DMatrixRMaj z = new DMatrixRMaj(n, d);
        for (int i = 0; i < n * d; i++) {
            z.data[i] = b.output()[i] + x[i];
        }
        return z;
    }

    @Test
    void weightGradientsOfBothLossesMatchFiniteDifferences() {
        for (boolean pl : new boolean[]{false, true}) {
            int d = 5;
            LabeledData data = ToyData.clusters(new int[]{1, 2, 3}, 4, d, 1.0, 0.6, 3);
            int n = data.size();
            double[] x = new double[n * d];
            for (int i = 0; i < x.length; i++) {
                x[i] = data.features().rawData()[i] + 0.5;
            }
            // support first (2 per class), then queries, labels 0..2
            int[] y = {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2};
            double[] xs = new double[n * d];
            int[] order = {0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11};
            for (int i = 0; i < n; i++) {
                System.arraycopy(x, order[i] * d, xs, i * d, d);
            }
            Mlp mlp = new Mlp(new int[]{d, 7, d}, false, 11);
            for (double[] w : mlp.parameters().values()) {
                for (int i = 0; i < w.length; i++) {
                    w[i] *= 0.5;
                }
            }
            double[] eps = new double[30 * 3];
            var g = org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian
                    .of(RandomStreams.create(8));
            for (int i = 0; i < eps.length; i++) {
                eps[i] = g.sample();
            }
            Mlp.Batch b = mlp.newBatch(n);
            DMatrixRMaj z = embed(mlp, xs, n, d, b);
            CosineKernel k = new CosineKernel(0.8);
            EpisodeObjective.Value v = pl ? plValue(k, z, y, eps)
                    : EpisodeObjective.ml(k, z, y, 3, 0.3, 0.0, 2, ElboForm.CORRECT);
            mlp.parameters().zeroGradients();
            System.arraycopy(v.dz().data, 0, b.outputGradient(), 0, n * d);
            mlp.backward(b, false);
            Set<Integer> checked = new HashSet<>();
            for (int a = 0; a < mlp.parameters().values().size(); a++) {
                double[] w = mlp.parameters().values().get(a);
                double[] grad = mlp.parameters().gradients().get(a).clone();
                for (int i : new int[]{0, w.length / 2, w.length - 1}) {
                    if (!checked.add(a * 1000 + i)) {
                        continue;
                    }
                    double h = 1e-6;
                    double w0 = w[i];
                    w[i] = w0 + h;
                    double lp = loss(mlp, xs, n, d, y, pl, b, eps);
                    w[i] = w0 - h;
                    double lm = loss(mlp, xs, n, d, y, pl, b, eps);
                    w[i] = w0;
                    double fd = (lp - lm) / (2 * h);
                    assertEquals(fd, grad[i], 1e-6 * Math.max(1, Math.abs(fd)) + 1e-9,
                            (pl ? "pl" : "ml") + " parameter array " + a + " entry " + i);
                }
            }
            assertTrue(checked.size() >= 6);
        }
    }

    @Test
    void episodeSamplerPutsTheSupportFirstAndKeepsItDisjointFromTheQueries() {
        LabeledData data = ToyData.clusters(new int[]{10, 11, 12, 13, 14, 15}, 9, 3, 1.0, 0.5, 1);
        EpisodeSampler s = new EpisodeSampler(data, new int[]{10, 11, 12, 13, 14, 15}, 2);
        EpisodeSampler.Episode e = s.sample(RandomStreams.create(4), 5, 2, 4);
        assertEquals(10, e.supportSize());
        assertEquals(30, e.rows().length);
        Set<Integer> rows = new HashSet<>();
        for (int r : e.rows()) {
            assertTrue(rows.add(r), "rows are distinct");
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(i / 2, e.labels()[i], "support is class-blocked, 2 shots per class");
            assertEquals(data.labels()[e.rows()[i]], data.labels()[e.rows()[(i / 2) * 2]]);
        }
        for (int i = 10; i < 30; i++) {
            int k = e.labels()[i];
            assertEquals(data.labels()[e.rows()[2 * k]], data.labels()[e.rows()[i]], "a query has its class's label");
        }
    }
}
