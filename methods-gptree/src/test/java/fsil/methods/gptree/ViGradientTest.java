package fsil.methods.gptree;

import fsil.api.SessionContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Finite-difference checks of the full training objective sum_v -ELBO_v / n_v (closed-form dL/dK through the
 * kernels' and the MLP's backward passes) with respect to every kind of trainable parameter: MLP weights and
 * biases, inducing inputs and every node's log hyperparameters.
 */
class ViGradientTest {

    private static void check(String kernel, String elbo) {
        int k = 4;
        int per = 6;
        int d = 5;
        int[] y = new int[k * per];
        float[] x = TestSupport.clusters(k, per, d, 1.0, 3, y);
        GpTreeConfig cfg = TestSupport.config("inference", "vi", "kernel", kernel, "elbo", elbo,
                "dkl_hidden", "7", "dkl_out", "4", "inducing", "2", "epochs", "3", "pretrain_epochs", "2",
                "batch_size", "10", "outputscale", "2.0", "lengthscale", "0.8");
        ViTrainer.Result r = new ViTrainer(cfg, 11, SessionContext.DIRECT).train(x, k * per, d, y, new int[]{0, 1, 2, 3});
        ViTrainer.Objective obj = r.objective();
        int[] batch = {0, 3, 5, 7, 8, 12, 13, 19, 20, 23};
        obj.params.zeroGradients();
        double loss = obj.evaluate(batch, false, true);
        assertTrue(Double.isFinite(loss));
        List<double[]> values = obj.params.values();
        List<double[]> grads = obj.params.gradients();
        int checked = 0;
        double worst = 0;
        for (int a = 0; a < values.size(); a++) {
            double[] w = values.get(a);
            double[] g = grads.get(a).clone();
            for (int i = 0; i < w.length; i += Math.max(1, w.length / 6)) {
                double old = w[i];
                double h = 1e-6 * Math.max(1.0, Math.abs(old));
                w[i] = old + h;
                double up = obj.evaluate(batch, false, false);
                w[i] = old - h;
                double down = obj.evaluate(batch, false, false);
                w[i] = old;
                double fd = (up - down) / (2 * h);
                double err = Math.abs(fd - g[i]) / Math.max(1e-4, Math.abs(fd) + Math.abs(g[i]));
                worst = Math.max(worst, err);
                assertEquals(fd, g[i], 1e-5 * Math.max(1e-2, Math.abs(fd)) + 1e-7,
                        kernel + "/" + elbo + ": parameter array " + a + " entry " + i);
                checked++;
            }
        }
        // MLP (2 layers x weights and bias) + inducing inputs + 3 nodes' hyperparameters
        assertTrue(values.size() >= 4 + 1 + 3, "all parameter kinds are trainable: " + values.size());
        assertTrue(checked > 20);
        assertTrue(worst < 1e-4, "worst relative error " + worst);
    }

    @Test
    void rbfCorrectBound() {
        check("rbf", "wenzel");
    }

    @Test
    void maternCodeBound() {
        check("matern52", "code");
    }

    @Test
    void linearCorrectBound() {
        check("linear", "wenzel");
    }
}
