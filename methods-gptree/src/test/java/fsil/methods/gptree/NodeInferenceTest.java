package fsil.methods.gptree;

import fsil.api.SessionContext;
import fsil.core.gp.Kernel;
import fsil.core.gp.KernelFamily;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.math.Stable;
import fsil.core.quad.GaussHermite;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node-level inference against exact answers on a 2-point problem (computed by 2-D Gauss-Hermite quadrature over
 * f = L z), and the variational bound's properties.
 */
class NodeInferenceTest {
    private static final DMatrixRMaj X = new DMatrixRMaj(new double[][]{{1, 0.2}, {0.3, 1}});
    private static final boolean[] RIGHT = {true, false};
    private static final DMatrixRMaj QUERIES = new DMatrixRMaj(new double[][]{{1, 0}, {1, 1}, {-0.2, 1}, {0.5, 0.4}});

    private static Kernel kernel() {
        return KernelFamily.RBF.create(2.0, 0.7);
    }

    /** Exact E[g(f) lik(f)] / E[lik(f)] and log E[lik(f)] under f ~ N(0, K), by 2-D Gauss-Hermite over f = L z. */
    private record Exact(double logEvidence, double[] predictive) {
    }

    private static Exact exact(double jitter) {
        Kernel k = kernel();
        DMatrixRMaj kxx = GibbsNode.priorCovariance(k, X, jitter);
        CholeskyFactor l = Cholesky.factor(kxx, JitterPolicy.none());
        DMatrixRMaj kxs = k.matrix(X, QUERIES);
        double[] kss = k.diag(QUERIES);
        int t = QUERIES.numRows;
        // f_* | f ~ N(a^T f, v) with a = K^-1 k_*, v = k_** + jitter - k_*^T K^-1 k_*
        DMatrixRMaj a = l.solve(kxs);
        double[] v = new double[t];
        for (int j = 0; j < t; j++) {
            v[j] = kss[j] + jitter - (kxs.get(0, j) * a.get(0, j) + kxs.get(1, j) * a.get(1, j));
        }
        GaussHermite outer = GaussHermite.of(120);
        GaussHermite inner = GaussHermite.standard();
        double[] xs = outer.nodes();
        double[] ws = outer.weights();
        double z0 = 0;
        double[] num = new double[t];
        double l00 = l.lower().get(0, 0);
        double l10 = l.lower().get(1, 0);
        double l11 = l.lower().get(1, 1);
        for (int i = 0; i < xs.length; i++) {
            for (int j = 0; j < xs.length; j++) {
                double za = Math.sqrt(2) * xs[i];
                double zb = Math.sqrt(2) * xs[j];
                double f1 = l00 * za;
                double f2 = l10 * za + l11 * zb;
                double w = ws[i] * ws[j] / Math.PI * Stable.sigmoid(f1) * Stable.sigmoid(-f2);
                z0 += w;
                for (int q = 0; q < t; q++) {
                    num[q] += w * inner.expectedSigmoid(a.get(0, q) * f1 + a.get(1, q) * f2, v[q]);
                }
            }
        }
        for (int q = 0; q < t; q++) {
            num[q] /= z0;
        }
        return new Exact(Math.log(z0), num);
    }

    @Test
    void gibbsPredictiveMatchesTheExactPosteriorPredictive() {
        Exact ex = exact(1e-3);
        for (GibbsNode.Draw draw : GibbsNode.Draw.values()) {
            GibbsNode node = GibbsNode.fit(X, RIGHT, kernel(),
                    new GibbsNode.Options(3000, 8, draw, GibbsNode.Predictive.GAUSS_HERMITE, 1e-3), 5, SessionContext.DIRECT);
            double[] p = node.probabilityRight(QUERIES);
            for (int q = 0; q < p.length; q++) {
                // a mean over 3000 chains of Rao-Blackwellised probabilities: standard error well below 0.005
                assertEquals(ex.predictive()[q], p[q], 0.015, draw + " query " + q);
            }
        }
        // the plug-in predictive sigmoid(mu_*) ignores the latent variance: more extreme than the exact predictive
        GibbsNode plug = GibbsNode.fit(X, RIGHT, kernel(),
                new GibbsNode.Options(3000, 8, GibbsNode.Draw.PATHWISE, GibbsNode.Predictive.PLUG_IN, 1e-3), 5,
                SessionContext.DIRECT);
        double[] pp = plug.probabilityRight(QUERIES);
        for (int q = 0; q < pp.length; q++) {
            assertTrue(Math.abs(pp[q] - 0.5) >= Math.abs(ex.predictive()[q] - 0.5) - 0.01, "plug-in query " + q);
        }
    }

    @Test
    void augmentedMarginalLikelihoodEqualsPaperEquation10() {
        GibbsNode node = GibbsNode.fit(X, RIGHT, kernel(),
                new GibbsNode.Options(1, 3, GibbsNode.Draw.PATHWISE, GibbsNode.Predictive.GAUSS_HERMITE, 1e-3), 9,
                SessionContext.DIRECT);
        double[] w = node.omega(0);
        // E1: log N(Omega^-1 kappa | 0, K + Omega^-1) + (n/2) log 2 pi - (1/2) sum log w + (1/2) sum kappa^2/w - n log 2
        DMatrixRMaj c = GibbsNode.priorCovariance(kernel(), X, 1e-3);
        double[] kappa = {0.5, -0.5};
        double[] z = new double[2];
        for (int i = 0; i < 2; i++) {
            c.add(i, i, 1 / w[i]);
            z[i] = kappa[i] / w[i];
        }
        CholeskyFactor l = Cholesky.factor(c, JitterPolicy.none());
        double direct = -0.5 * l.quadForm(z) - 0.5 * l.logDet() - Math.log(2 * Math.PI);
        direct += Math.log(2 * Math.PI);
        for (int i = 0; i < 2; i++) {
            direct += -0.5 * Math.log(w[i]) + 0.5 * kappa[i] * kappa[i] / w[i] - Math.log(2);
        }
        assertEquals(direct, node.logMarginal(), 1e-10 * Math.abs(direct));
    }

    private static ViNode twoPointViNode() {
        TreeNode t = TreeNode.internal(new int[]{0, 1}, new TreeNode(new int[]{0}), new TreeNode(new int[]{1}));
        return new ViNode(t, new int[]{0, 1}, kernel(), 1e-2, 2);
    }

    @Test
    void variationalBoundIsBelowTheExactEvidenceAndConvergesUnderCoordinateAscent() {
        double logEvidence = exact(1e-2).logEvidence();
        ViNode node = twoPointViNode();
        // inducing inputs = training inputs, so Ktilde = 0 and the bound is for the exact 2-point model
        ViNode.Forward fx = node.new Forward(X, X, RIGHT, new int[]{0, 1});
        double previous = Double.NEGATIVE_INFINITY;
        for (int it = 0; it < 60; it++) {
            node.update(fx, 1.0);
            double elbo = node.objective(fx, ViNode.Elbo.WENZEL, false).elbo();
            assertTrue(elbo >= previous - 1e-12, "coordinate ascent decreased the bound at iteration " + it);
            assertTrue(elbo <= logEvidence + 1e-9, "bound " + elbo + " above the evidence " + logEvidence);
            previous = elbo;
        }
        assertEquals(logEvidence, previous, 0.05, "the converged bound is close to the evidence");
    }

    @Test
    void viBoundIsMonotoneUnderFullBatchUpdates() {
        int[] y = new int[5 * 12];
        float[] x = TestSupport.clusters(5, 12, 6, 2.0, 21, y);
        for (String rho : new String[]{"1.0", "0.5", "0.1"}) {
            GpTreeConfig cfg = TestSupport.config("inference", "vi", "deep_kernel", "false", "learn_hyper", "false",
                    "learn_inducing", "false", "batch_size", "1000", "natural_lr", rho, "epochs", "25", "inducing", "3");
            ViTrainer tr = new ViTrainer(cfg, 4, SessionContext.DIRECT);
            tr.train(x, 60, 6, y, new int[]{0, 1, 2, 3, 4});
            List<Double> loss = tr.epochLoss;
            for (int e = 1; e < loss.size(); e++) {
                assertTrue(loss.get(e) <= loss.get(e - 1) + 1e-12,
                        "rho=" + rho + ": loss rose from " + loss.get(e - 1) + " to " + loss.get(e) + " at epoch " + e);
            }
            assertTrue(loss.get(loss.size() - 1) < loss.get(0));
        }
    }
}
