package fsil.methods.lsgp;

import fsil.core.math.Stable;
import org.apache.commons.numbers.gamma.Digamma;
import org.apache.commons.numbers.gamma.LogGamma;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * An independent, deliberately plain implementation of the ELBO in its general form (module README), for any
 * variational parameters (mu^c, Sigma^c full, gamma, alpha, tilt c), with explicit inverses and determinants (test
 * code only, on small well-conditioned matrices).
 */
final class ExplicitElbo {
    private ExplicitElbo() {
    }

    static double value(DMatrixRMaj k, int[] y, int numClasses, double tau, double a, double[][] mu,
                        DMatrixRMaj[] sigma, double[][] gamma, double[] alpha, double[][] tilt) {
        int n = k.numRows;
        double tau2 = tau * tau;
        double logC = Math.log(numClasses);
        double total = 0;
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                double yy = y[i] == c ? 1 : 0;
                double g = gamma[c][i];
                double cc = tilt[c][i];
                double th = (yy + g) * Math.tanh(cc / 2) / (2 * cc);
                double e2 = mu[c][i] * mu[c][i] + sigma[c].get(i, i);
                total += -(yy + g) * Math.log(2) + (yy - g) * mu[c][i] / (2 * tau) - 0.5 * th * e2 / tau2;
                total += -(yy + g) * Math.log(Math.cosh(cc / 2)) + 0.5 * cc * cc * th;
                total += g * (Digamma.value(alpha[i]) - logC) - alpha[i] / numClasses - Stable.xLogX(g) + g;
            }
        }
        for (int i = 0; i < n; i++) {
            total += alpha[i] - logC + LogGamma.value(alpha[i]) + (1 - alpha[i]) * Digamma.value(alpha[i]);
        }
        DMatrixRMaj kInv = k.copy();
        CommonOps_DDRM.invert(kInv);
        double logDetK = Math.log(CommonOps_DDRM.det(k));
        for (int c = 0; c < numClasses; c++) {
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = mu[c][i] - a;
            }
            DMatrixRMaj ks = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(kInv, sigma[c], ks);
            double quad = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    quad += d[i] * kInv.get(i, j) * d[j];
                }
            }
            double kl = 0.5 * (logDetK - Math.log(CommonOps_DDRM.det(sigma[c])) + CommonOps_DDRM.trace(ks) + quad - n);
            total -= kl;
        }
        return total;
    }
}
