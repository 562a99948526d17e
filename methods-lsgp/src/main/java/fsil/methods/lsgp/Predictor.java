package fsil.methods.lsgp;

import fsil.core.calibration.TemperatureScaling;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Class probabilities p(y_* = k) = E[LS_k(f_*)] under independent Gaussian predictives per class (paper Eq. 4.6a).
 *
 * <p>With one site set (mean-field) and {@code quadrature}, each query's expectation is computed deterministically by
 * {@link PredictiveQuadrature} (no Monte Carlo noise); queries with a logit sd above
 * {@link PredictiveQuadrature#MAX_LOGIT_SD} fall back to Monte Carlo. Otherwise Monte Carlo with S draws
 * f_c = mean_c + sd_c eps_{s,c}: the standard normals eps are drawn once from the session's seed and shared by every
 * query ("common random numbers"), so a query's probabilities do not depend on which other queries are in the batch
 * (the inductive contract) and comparisons between queries have less noise. With several site sets (Gibbs draws)
 * draw s uses set s mod R: an equally weighted mixture.
 */
final class Predictor {
    private final int numClasses;
    private final double tau;
    private final int samples;
    private final long seed;
    private final PredictiveQuadrature quadrature;
    private double[] eps;

    Predictor(int numClasses, double tau, int samples, long seed) {
        this(numClasses, tau, samples, seed, false);
    }

    /** @param quadrature use {@link PredictiveQuadrature} for single site sets (mean-field) */
    Predictor(int numClasses, double tau, int samples, long seed, boolean quadrature) {
        this.numClasses = numClasses;
        this.tau = tau;
        this.samples = samples;
        this.seed = seed;
        this.quadrature = quadrature ? new PredictiveQuadrature(numClasses) : null;
    }

    /** The shared standard normals, drawn on first use. */
    private double[] normals() {
        if (eps == null) {
            double[] e = new double[samples * numClasses];
            UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "lsgp-predictive"));
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
            for (int i = 0; i < e.length; i++) {
                e[i] = g.sample();
            }
            eps = e;
        }
        return eps;
    }

    /**
     * Row-major t x C probabilities from means and variances [r][c][j].
     *
     * @param temperature calibration temperature T: the output is softmax(log p / T) (1 = unchanged)
     */
    double[] probabilities(double[][][] means, double[][][] variances, int t, double temperature) {
        int sets = means.length;
        double[] out = new double[t * numClasses];
        double[] f = new double[numClasses];
        double[] sig = new double[numClasses];
        double[] lp = new double[numClasses];
        double[] acc = new double[numClasses];
        double[][] mean = new double[sets][numClasses];
        double[][] sd = new double[sets][numClasses];
        double invTau = 1.0 / tau;
        double[] logitMean = new double[numClasses];
        double[] logitSd = new double[numClasses];
        double[] q = new double[numClasses];
        for (int j = 0; j < t; j++) {
            for (int r = 0; r < sets; r++) {
                for (int c = 0; c < numClasses; c++) {
                    mean[r][c] = means[r][c][j];
                    sd[r][c] = Math.sqrt(variances[r][c][j]);
                }
            }
            if (quadrature != null && sets == 1) {
                for (int c = 0; c < numClasses; c++) {
                    logitMean[c] = mean[0][c] * invTau;
                    logitSd[c] = sd[0][c] * invTau;
                }
                if (quadrature.probabilities(logitMean, logitSd, q)) {
                    System.arraycopy(q, 0, out, j * numClasses, numClasses);
                    if (temperature != 1.0) {
                        TemperatureScaling.applyRow(out, j * numClasses, numClasses, temperature);
                    }
                    continue;
                }
            }
            double[] eps = normals();
            java.util.Arrays.fill(acc, 0);
            for (int s = 0; s < samples; s++) {
                int r = s % sets;
                int e = s * numClasses;
                double[] m = mean[r];
                double[] d = sd[r];
                double total = 0;
                for (int c = 0; c < numClasses; c++) {
                    double x = (m[c] + d[c] * eps[e + c]) * invTau;
                    f[c] = x * tau;
                    // sigma(x) with one exp; sums below the double range fall back to log space
                    double v = x >= 0 ? 1.0 / (1.0 + Math.exp(-x)) : sigmoidNegative(x);
                    sig[c] = v;
                    total += v;
                }
                if (total > 1e-250) {
                    double inv = 1.0 / total;
                    for (int c = 0; c < numClasses; c++) {
                        acc[c] += sig[c] * inv;
                    }
                } else {
                    LogisticSoftmax.logProbabilities(f, 0, numClasses, tau, lp);
                    for (int c = 0; c < numClasses; c++) {
                        acc[c] += Math.exp(lp[c]);
                    }
                }
            }
            double total = 0;
            for (int c = 0; c < numClasses; c++) {
                total += acc[c];
            }
            for (int c = 0; c < numClasses; c++) {
                out[j * numClasses + c] = acc[c] / total;
            }
            if (temperature != 1.0) {
                TemperatureScaling.applyRow(out, j * numClasses, numClasses, temperature);
            }
        }
        return out;
    }

    private static double sigmoidNegative(double x) {
        double e = Math.exp(x);
        return e / (1.0 + e);
    }
}
