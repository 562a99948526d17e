package fsil.core.nn;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Central finite-difference checks of every backward pass, and optimizer identities. */
class NnGradientTest {
    static final double H = 1e-6;

    private static double[] randomArray(int n, UniformRandomProvider rng) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = 2 * rng.nextDouble() - 1;
        }
        return a;
    }

    /** L = sum(c * output) for fixed input x. */
    private static double objective(Mlp mlp, Mlp.Batch b, double[] x, double[] c) {
        System.arraycopy(x, 0, b.input(), 0, x.length);
        mlp.forward(b);
        double s = 0;
        double[] y = b.output();
        for (int i = 0; i < c.length; i++) {
            s += c[i] * y[i];
        }
        return s;
    }

    private static void checkMlp(int[] sizes, boolean reluOut) {
        UniformRandomProvider rng = RandomStreams.create(42);
        Mlp mlp = new Mlp(sizes, reluOut, 7);
        int n = 3;
        Mlp.Batch b = mlp.newBatch(n);
        b.resize(n);
        double[] x = randomArray(n * sizes[0], rng);
        double[] c = randomArray(n * mlp.outputSize(), rng);
        objective(mlp, b, x, c);
        mlp.parameters().zeroGradients();
        System.arraycopy(c, 0, b.outputGradient(), 0, c.length);
        mlp.backward(b, true);
        double[] dx = b.inputGradient().clone();
        // parameters
        List<double[]> values = mlp.parameters().values();
        List<double[]> grads = mlp.parameters().gradients();
        int checked = 0;
        for (int a = 0; a < values.size(); a++) {
            double[] w = values.get(a);
            for (int i = 0; i < w.length; i++) {
                double old = w[i];
                w[i] = old + H;
                double up = objective(mlp, b, x, c);
                w[i] = old - H;
                double down = objective(mlp, b, x, c);
                w[i] = old;
                double fd = (up - down) / (2 * H);
                assertEquals(fd, grads.get(a)[i], 1e-6 * Math.max(1, Math.abs(fd)), "param array " + a + "[" + i + "]");
                checked++;
            }
        }
        assertEquals(mlp.parameters().count(), checked);
        // inputs
        for (int i = 0; i < x.length; i++) {
            double old = x[i];
            x[i] = old + H;
            double up = objective(mlp, b, x, c);
            x[i] = old - H;
            double down = objective(mlp, b, x, c);
            x[i] = old;
            assertEquals((up - down) / (2 * H), dx[i], 1e-6, "input " + i);
        }
    }

    @Test
    void denseLayerGradients() {
        checkMlp(new int[]{4, 3}, false);
    }

    @Test
    void reluMlpGradients() {
        checkMlp(new int[]{5, 7, 6, 3}, true);
        checkMlp(new int[]{5, 7, 4}, false);
    }

    @Test
    void crossEntropyGradientAndClosedForm() {
        UniformRandomProvider rng = RandomStreams.create(3);
        int n = 4;
        int k = 5;
        double[] z = randomArray(n * k, rng);
        int[] y = {0, 4, 2, 2};
        double[] g = new double[n * k];
        SoftmaxCrossEntropy.lossAndGradient(z, n, k, y, null, g);
        for (int i = 0; i < z.length; i++) {
            double old = z[i];
            z[i] = old + H;
            double up = SoftmaxCrossEntropy.lossAndGradient(z, n, k, y, null, null);
            z[i] = old - H;
            double down = SoftmaxCrossEntropy.lossAndGradient(z, n, k, y, null, null);
            z[i] = old;
            assertEquals((up - down) / (2 * H), g[i], 1e-8);
        }
        // uniform logits: loss = log k; huge logits stay finite
        assertEquals(Math.log(k), SoftmaxCrossEntropy.lossAndGradient(new double[k], 1, k, new int[]{1}, null, null),
                1e-15);
        double big = SoftmaxCrossEntropy.lossAndGradient(new double[]{1000, -1000}, 1, 2, new int[]{1}, null, null);
        assertEquals(2000, big, 1e-9);
    }

    @Test
    void sgdStepIsGradientDescent() {
        Parameters p = new Parameters();
        double[] w = {1, 2};
        double[] g = p.add(w);
        g[0] = 0.5;
        g[1] = -1;
        new Sgd(0.1, 0).step(p);
        assertArrayEquals(new double[]{0.95, 2.1}, w, 1e-15);
    }

    @Test
    void adamFirstStepHasLengthLrAndConvergesOnAQuadratic() {
        Parameters p = new Parameters();
        double[] w = {3, -2};
        double[] g = p.add(w);
        Adam adam = new Adam(0.01, 0);
        g[0] = 2 * w[0];
        g[1] = 2 * w[1];
        adam.step(p);
        // bias-corrected first step is lr * g / (|g| + eps) = lr * sign(g)
        assertArrayEquals(new double[]{3 - 0.01, -2 + 0.01}, w, 1e-9);
        Adam fast = new Adam(0.05, 0);
        for (int t = 0; t < 2000; t++) {
            g[0] = 2 * w[0];
            g[1] = 2 * w[1];
            fast.step(p);
        }
        assertEquals(0, w[0], 1e-3);
        assertEquals(0, w[1], 1e-3);
    }

    @Test
    void sameSeedSameWeightsAndHeScale() {
        Mlp a = new Mlp(new int[]{400, 300}, true, 11);
        Mlp b = new Mlp(new int[]{400, 300}, true, 11);
        assertArrayEquals(a.layers().get(0).weights(), b.layers().get(0).weights());
        double ss = 0;
        for (double v : a.layers().get(0).weights()) {
            ss += v * v;
        }
        // He init: variance 2 / fan_in
        assertEquals(2.0 / 400, ss / (400 * 300), 0.05 * 2.0 / 400);
        assertTrue(new Mlp(new int[]{400, 300}, true, 12).layers().get(0).weights()[0] != a.layers().get(0).weights()[0]);
    }

    @Test
    void trainsAClassifierOnSeparableData() {
        // two Gaussian blobs in 2-d, MLP 2 -> 16 (ReLU) + linear classifier 16 -> 2, Adam
        UniformRandomProvider rng = RandomStreams.create(5);
        int n = 200;
        float[] x = new float[n * 2];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            x[2 * i] = (float) ((y[i] == 0 ? -2 : 2) + rng.nextDouble() - 0.5);
            x[2 * i + 1] = (float) (rng.nextDouble() - 0.5);
        }
        Mlp mlp = new Mlp(new int[]{2, 16}, true, 1);
        Mlp head = new Mlp(new int[]{16, 2}, false, 2);
        Parameters all = new Parameters().addAll(mlp.parameters()).addAll(head.parameters());
        Adam adam = new Adam(0.05, 0);
        Mlp.Batch b = mlp.newBatch(n);
        Mlp.Batch h = head.newBatch(n);
        double loss = Double.NaN;
        for (int step = 0; step < 100; step++) {
            b.setInput(x, null, 0, n);
            mlp.forward(b);
            h.resize(n);
            System.arraycopy(b.output(), 0, h.input(), 0, n * 16);
            head.forward(h);
            all.zeroGradients();
            loss = SoftmaxCrossEntropy.lossAndGradient(h.output(), n, 2, y, null, h.outputGradient());
            head.backward(h, true);
            System.arraycopy(h.inputGradient(), 0, b.outputGradient(), 0, n * 16);
            mlp.backward(b, false);
            adam.step(all);
        }
        assertTrue(loss < 0.05, "final loss " + loss);
    }
}
