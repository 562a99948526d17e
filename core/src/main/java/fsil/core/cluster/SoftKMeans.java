package fsil.core.cluster;

import fsil.core.linalg.Distances;
import fsil.core.math.Softmax;

import java.util.Arrays;

/**
 * Transductive soft k-means with clamped support (EM with a shared isotropic covariance), as BAVARDAGE's
 * initialisation ({@code soft_km} in the authors' code, paper Alg. 1 "EM(X, T_km)") and the soft k-means baseline
 * use it. Centroids start at the support means; each round computes
 * p_nk = softmax_k(-T_km ||x_n - mu_k||^2) with a plain stable softmax, overwrites the support rows with their
 * one-hot labels, and re-estimates mu_k = sum_n p_nk x_n / sum_n p_nk over all rows. The result is p from the
 * last round; the centroid update after it would not be used, so it is skipped.
 */
public final class SoftKMeans {
    private SoftKMeans() {
    }

    /**
     * @param x        row-major N x p data; rows 0..ns-1 are the support
     * @param n        N
     * @param p        dimension
     * @param support  class index (0..k-1) of each support row; every class must occur
     * @param k        number of classes
     * @param t        temperature T_km
     * @param rounds   number of rounds n_km (at least 1)
     * @return row-major N x k assignments, support rows one-hot
     */
    public static double[] run(double[] x, int n, int p, int[] support, int k, double t, int rounds) {
        double[] mu = new double[k * p];
        double[] weight = new double[k];
        for (int i = 0; i < support.length; i++) {
            weight[support[i]]++;
            addRow(mu, support[i], x, i, p, 1);
        }
        divideRows(mu, weight, k, p);
        double[] r = new double[n * k];
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < k; c++) {
                    r[i * k + c] = -t * Distances.squared(x, i * p, mu, c * p, p);
                }
            }
            Softmax.inPlaceRows(r, n, k);
            clampSupport(r, support, k);
            if (round == rounds - 1) {
                break;
            }
            Arrays.fill(mu, 0);
            Arrays.fill(weight, 0);
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < k; c++) {
                    double w = r[i * k + c];
                    if (w != 0) {
                        weight[c] += w;
                        addRow(mu, c, x, i, p, w);
                    }
                }
            }
            divideRows(mu, weight, k, p);
        }
        return r;
    }

    /** Overwrites the support rows of the row-major responsibilities with the one-hot labels. */
    public static void clampSupport(double[] r, int[] support, int k) {
        for (int i = 0; i < support.length; i++) {
            Arrays.fill(r, i * k, (i + 1) * k, 0);
            r[i * k + support[i]] = 1;
        }
    }

    private static void addRow(double[] mu, int c, double[] x, int row, int p, double w) {
        int mo = c * p;
        int xo = row * p;
        for (int j = 0; j < p; j++) {
            mu[mo + j] += w * x[xo + j];
        }
    }

    private static void divideRows(double[] mu, double[] weight, int k, int p) {
        for (int c = 0; c < k; c++) {
            if (weight[c] > 0) {
                double inv = 1 / weight[c];
                for (int j = 0; j < p; j++) {
                    mu[c * p + j] *= inv;
                }
            }
        }
    }
}
