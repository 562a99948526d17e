package fsil.methods.bavardage;

import fsil.api.LabeledData;

/**
 * The two scales of a set of base statistics that T_vb and s_max are measured against by the {@code auto} preset.
 *
 * <p>BAVARDAGE is equivariant to the scale of S_w: replacing S_w by a S_w divides every whitening gain by sqrt(a),
 * hence the whitened data, the PLDA centroids and the VB means by sqrt(a) and the squared distances by a, so
 * (T_vb, s_max) with a S_w gives exactly the responsibilities of (T_vb / a, s_max sqrt(a)) with S_w (the soft
 * k-means runs on the unwhitened data and is unaffected). Any two quantities that scale like a and 1/sqrt(a)
 * therefore make scale-free versions of T_vb and s_max; these two are chosen so that the scale-free values mean
 * something:
 * <ul>
 *   <li>{@code precision} = D / mean_i ||G (x_i - m_c(i))||^2: the inverse of the average per-dimension
 *   within-class variance of the base rows after the unclamped whitening G (G^T G = S_w^-1), i.e. the isotropic
 *   precision that fits the base classes' own spread. T_vb / precision = 1 models a task class as tight as a
 *   base class. For {@link Variant#VB_NO_PLDA}, which does not whiten, G = I.</li>
 *   <li>{@code gain} = 1 / sqrt(tr(S_w) / D): the whitening gain of a direction with the average variance of S_w.
 *   s_max / gain = 1 clamps every direction that has less than the average variance.</li>
 * </ul>
 * With the code's S_w, whose scale grows with the number of images per base class, both change with the data
 * while the scale-free values stay comparable between datasets; with half of the rows of every class S_w halves,
 * and so do precision and gain^2.
 *
 * @param precision T_vb reference (1 / per-dimension whitened within-class variance of the base rows)
 * @param gain      s_max reference (1 / sqrt of the mean eigenvalue of S_w)
 */
public record ScatterScales(double precision, double gain) {

    /** Rows per block of the triangular solve (bounds the memory to rows x D doubles). */
    private static final int BLOCK = 512;

    /**
     * The scales of {@code stats}, computed from the base rows it was built from.
     *
     * @param variant which VB input the precision refers to (whitened for the full method, normalised for
     *                vb-no-plda; softkmeans uses neither)
     */
    static ScatterScales of(LabeledData base, BaseStatistics stats, Variant variant) {
        int n = base.size();
        int d = base.dimension();
        double[] x = new double[n * d];
        FeatureNormalisation.centreAndNormalise(base.features().rawData(), 0, n, d, stats.mean(), x, 0);
        subtractClassMeans(x, d, base.labels());
        double meanEigenvalue = stats.kind() == Preprocessing.CODE ? frobeniusSquared(stats.cholesky()) / d
                : sum(stats.eigenvalues()) / d;
        double squared = variant == Variant.BAVARDAGE ? whitenedSquaredNorm(x, n, d, stats) : sumOfSquares(x);
        double perDimension = squared / ((double) n * d);
        double precision = perDimension > 0 ? 1 / perDimension : Double.POSITIVE_INFINITY;
        double gain = meanEigenvalue > 0 ? 1 / Math.sqrt(meanEigenvalue) : Double.POSITIVE_INFINITY;
        return new ScatterScales(precision, gain);
    }

    /** Whether both scales are usable (finite and positive: the base rows have some within-class spread). */
    boolean usable() {
        return precision > 0 && Double.isFinite(precision) && gain > 0 && Double.isFinite(gain);
    }

    /** T_vb for the scale-free value {@code tau}. */
    double tVb(double tau) {
        return tau * precision;
    }

    /** s_max for the scale-free value {@code varsigma}. */
    double sMax(double varsigma) {
        return varsigma * gain;
    }

    private static void subtractClassMeans(double[] x, int d, int[] labels) {
        for (int[] rows : WithinClassScatter.groups(labels)) {
            double[] m = new double[d];
            for (int r : rows) {
                for (int j = 0; j < d; j++) {
                    m[j] += x[r * d + j];
                }
            }
            for (int j = 0; j < d; j++) {
                m[j] /= rows.length;
            }
            for (int r : rows) {
                for (int j = 0; j < d; j++) {
                    x[r * d + j] -= m[j];
                }
            }
        }
    }

    /** sum_i ||G x_i||^2 with G = L^-1 (code) or diag(lambda^-1/2) R^T over lambda > 0 (paper). */
    private static double whitenedSquaredNorm(double[] x, int n, int d, BaseStatistics stats) {
        double total = 0;
        if (stats.kind() == Preprocessing.CODE) {
            double[] b = new double[d * BLOCK];
            for (int start = 0; start < n; start += BLOCK) {
                int m = Math.min(BLOCK, n - start);
                // columns of B (d x m) are the rows x_start .. x_start+m-1
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < d; j++) {
                        b[j * m + i] = x[(start + i) * d + j];
                    }
                }
                Whitening.forwardSubstitution(stats.cholesky(), d, b, m);
                for (int t = 0; t < d * m; t++) {
                    total += b[t] * b[t];
                }
            }
            return total;
        }
        double[] lambda = stats.eigenvalues();
        double[] r = stats.eigenvectors();
        double[] proj = new double[d];
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(proj, 0);
            for (int j = 0; j < d; j++) {
                double v = x[i * d + j];
                for (int k = 0; k < d; k++) {
                    proj[k] += v * r[j * d + k];
                }
            }
            for (int k = 0; k < d; k++) {
                if (lambda[k] > 0) {
                    total += proj[k] * proj[k] / lambda[k];
                }
            }
        }
        return total;
    }

    private static double frobeniusSquared(double[] a) {
        return sumOfSquares(a);
    }

    private static double sumOfSquares(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v * v;
        }
        return s;
    }

    private static double sum(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s;
    }
}
