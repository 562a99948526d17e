package fsil.methods.lsgp;

import fsil.core.gp.CosineKernel;
import fsil.core.gp.KernelGradients;
import fsil.core.gp.SymmetricKernelGradients;
import org.ejml.data.DMatrixRMaj;

/**
 * The two meta-training losses of one episode as functions of the embedded points z = g_theta(x) and the kernel's
 * log outputscale, with their exact gradients (the "objective actually optimised", checked by finite differences in
 * the tests).
 *
 * <ul>
 *   <li>{@link #ml}: loss = -ELBO_T / n on all n points of the episode (support and queries together, as the
 *   authors do), where ELBO_T is the bound after exactly T mean-field steps from the deterministic initialisation.
 *   The gradient goes through the T unrolled steps ({@link MeanField#elboGradient}).</li>
 *   <li>{@link #pl}: loss = -(1/Q) sum_j log (1/S) sum_s LS_{y_j}(f_j^(s)), the Monte Carlo log predictive
 *   likelihood of the Q query points given the posterior after T steps on the support set only (the authors' PL
 *   loss with the support slicing fixed and the proper log of the MC average), f^(s) = mean + sd eps^(s) with fixed eps
 *   (reparameterisation). The gradient goes through the predictive and through the T steps.</li>
 * </ul>
 */
final class EpisodeObjective {
    /** Loss value and gradients. dz rows follow the input rows (support first for pl). */
    record Value(double loss, DMatrixRMaj dz, double dLogOutputscale, double elbo) {
    }

    private EpisodeObjective() {
    }

    static Value ml(CosineKernel kernel, DMatrixRMaj z, int[] y, int numClasses, double tau, double priorMean,
                    int steps, ElboForm form) {
        int n = z.numRows;
        DMatrixRMaj k = kernel.matrix(z);
        MeanField mf = MeanField.run(k, y, numClasses, tau, priorMean, steps, 0);
        double elbo = mf.elbo(form);
        DMatrixRMaj g = mf.elboGradient(form);
        for (int i = 0; i < g.data.length; i++) {
            g.data[i] = -g.data[i] / n;
        }
        SymmetricKernelGradients kg = kernel.backward(z, g);
        return new Value(-elbo / n, kg.dx(), kg.dHyper()[0], elbo);
    }

    /**
     * @param eps standard normals, S x C row-major (the reparameterisation noise, shared by the queries)
     */
    static Value pl(CosineKernel kernel, DMatrixRMaj zs, int[] ys, DMatrixRMaj zq, int[] yq, int numClasses,
                    double tau, double priorMean, int steps, double[] eps) {
        int ns = zs.numRows;
        int q = zq.numRows;
        int samples = eps.length / numClasses;
        DMatrixRMaj k = kernel.matrix(zs);
        DMatrixRMaj kStar = kernel.matrix(zs, zq);
        double[] kss = kernel.diag(zq);
        MeanField mf = MeanField.run(k, ys, numClasses, tau, priorMean, steps, 0);
        TaskPosterior post = TaskPosterior.of(mf);
        double[][] means = post.means(kStar, false)[0];
        double[][] vars = post.variances(kStar, kss)[0];
        double[][] meanBar = new double[numClasses][q];
        double[][] varBar = new double[numClasses][q];
        double[] f = new double[numClasses];
        double[] lp = new double[numClasses];
        double[] grad = new double[numClasses];
        double[] ls = new double[samples];
        double[] sd = new double[numClasses];
        double loss = 0;
        for (int j = 0; j < q; j++) {
            for (int c = 0; c < numClasses; c++) {
                sd[c] = Math.sqrt(vars[c][j]);
            }
            double max = Double.NEGATIVE_INFINITY;
            for (int s = 0; s < samples; s++) {
                for (int c = 0; c < numClasses; c++) {
                    f[c] = means[c][j] + sd[c] * eps[s * numClasses + c];
                }
                LogisticSoftmax.logProbabilities(f, 0, numClasses, tau, lp);
                ls[s] = lp[yq[j]];
                max = Math.max(max, ls[s]);
            }
            double sum = 0;
            for (int s = 0; s < samples; s++) {
                sum += Math.exp(ls[s] - max);
            }
            double logMean = max + Math.log(sum) - Math.log(samples);
            loss -= logMean / q;
            // d(-logMean/q)/df_c^(s) = -(w_s / q) dlog LS_y / df_c with w_s = softmax_s(ls)
            for (int s = 0; s < samples; s++) {
                double w = Math.exp(ls[s] - max) / sum;
                for (int c = 0; c < numClasses; c++) {
                    f[c] = means[c][j] + sd[c] * eps[s * numClasses + c];
                }
                LogisticSoftmax.logProbabilities(f, 0, numClasses, tau, lp);
                LogisticSoftmax.gradientOfLogProbability(f, 0, numClasses, tau, yq[j], lp, grad);
                for (int c = 0; c < numClasses; c++) {
                    double gsc = -w * grad[c] / q;
                    meanBar[c][j] += gsc;
                    varBar[c][j] += gsc * eps[s * numClasses + c];   // d/dsd, converted below
                }
            }
            for (int c = 0; c < numClasses; c++) {
                varBar[c][j] = sd[c] > 0 ? varBar[c][j] / (2 * sd[c]) : 0.0;
            }
        }
        DMatrixRMaj kBar = new DMatrixRMaj(ns, ns);
        DMatrixRMaj kStarBar = new DMatrixRMaj(ns, q);
        double[] diagBar = new double[q];
        double[][] dBar = new double[numClasses][ns];
        double[][] bBar = new double[numClasses][ns];
        for (int c = 0; c < numClasses; c++) {
            mf.predictiveReverse(c, kStar, meanBar[c], varBar[c], kStarBar, kBar, dBar[c], bBar[c]);
            for (int j = 0; j < q; j++) {
                diagBar[j] += varBar[c][j];
            }
        }
        DMatrixRMaj through = mf.backpropagateSites(dBar, bBar);
        for (int i = 0; i < kBar.data.length; i++) {
            kBar.data[i] += through.data[i];
        }
        SymmetricKernelGradients gs = kernel.backward(zs, kBar);
        KernelGradients gx = kernel.backward(zs, zq, kStarBar);
        double[] gd = kernel.backwardDiag(zq, diagBar);
        int d = zs.numCols;
        DMatrixRMaj dz = new DMatrixRMaj(ns + q, d);
        for (int i = 0; i < ns * d; i++) {
            dz.data[i] = gs.dx().data[i] + gx.dx1().data[i];
        }
        System.arraycopy(gx.dx2().data, 0, dz.data, ns * d, q * d);
        return new Value(loss, dz, gs.dHyper()[0] + gx.dHyper()[0] + gd[0], Double.NaN);
    }
}
