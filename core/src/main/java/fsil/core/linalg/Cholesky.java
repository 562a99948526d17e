package fsil.core.linalg;

import fsil.core.math.NumericalException;
import org.ejml.EjmlParameters;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

import java.util.Locale;

/**
 * Cholesky factorisation A + j I = L L^T of a symmetric positive-definite matrix with EJML, under a bounded
 * {@link JitterPolicy}. Failure after the last attempt is a {@link NumericalException} that states the matrix
 * size, the jitters tried and a condition estimate (extreme eigenvalues) - never a silent fallback.
 *
 * <p>Use the returned {@link CholeskyFactor} for solves, log-determinants and quadratic forms; no method in this
 * package forms an explicit inverse.
 */
public final class Cholesky {
    /** Above this size the error path skips the O(n^3) eigenvalue condition estimate and reports a diagonal bound. */
    static final int EIGEN_ESTIMATE_MAX_SIZE = 2000;

    private Cholesky() {
    }

    /** Factors {@code a} (not modified) with {@link JitterPolicy#DEFAULT}. */
    public static CholeskyFactor factor(DMatrixRMaj a) {
        return factor(a, JitterPolicy.DEFAULT);
    }

    /**
     * Factors {@code a} (not modified): the first attempt of {@code policy} that yields a factor with a positive,
     * finite diagonal wins.
     *
     * @throws IllegalArgumentException if {@code a} is not square
     * @throws NumericalException       if {@code a} has non-finite entries, is not symmetric (relative tolerance
     *                                  1e-8), or is not positive definite under any jitter of the policy
     */
    public static CholeskyFactor factor(DMatrixRMaj a, JitterPolicy policy) {
        return factor(a, policy, false);
    }

    /**
     * As {@link #factor(DMatrixRMaj, JitterPolicy)}, but the factor may be computed in {@code a}'s own storage when
     * the policy has a single attempt (no copy, no second n x n array): afterwards {@code a} holds L or, on failure,
     * garbage. For callers that built {@code a} only to factor it.
     */
    public static CholeskyFactor factorOverwriting(DMatrixRMaj a, JitterPolicy policy) {
        return factor(a, policy, true);
    }

    private static CholeskyFactor factor(DMatrixRMaj a, JitterPolicy policy, boolean overwrite) {
        int n = a.numRows;
        if (a.numCols != n) {
            throw new IllegalArgumentException("Cholesky needs a square matrix, got " + n + " x " + a.numCols);
        }
        checkFiniteAndSymmetric(a);
        if (n == 0) {
            return new CholeskyFactor(new DMatrixRMaj(0, 0), 0.0, 1);
        }
        double meanDiag = 0;
        for (int i = 0; i < n; i++) {
            meanDiag += a.data[i * n + i];
        }
        meanDiag /= n;
        boolean inner = n < EjmlParameters.SWITCH_BLOCK64_CHOLESKY;
        boolean inPlace = overwrite && inner && policy.attempts() == 1;
        if (meanDiag > 0) {
            CholeskyDecomposition_F64<DMatrixRMaj> chol = inner ? null : DecompositionFactory_DDRM.chol(n, true);
            DMatrixRMaj work = inPlace ? a : new DMatrixRMaj(n, n);
            for (int k = 0; k < policy.attempts(); k++) {
                double jitter = policy.relativeJitter(k) * meanDiag;
                if (!inPlace) {
                    work.setTo(a);
                }
                for (int i = 0; i < n; i++) {
                    work.data[i * n + i] += jitter;
                }
                if (inner ? decomposeLower(work.data, n) : chol.decompose(work)) {
                    DMatrixRMaj lower = inner ? work : chol.getT(null);
                    if (validFactor(lower)) {
                        return new CholeskyFactor(lower, jitter, k + 1);
                    }
                }
            }
        }
        throw new NumericalException(failureMessage(a, policy, meanDiag, inPlace && meanDiag > 0));
    }

    /**
     * In-place lower Cholesky factor of the row-major n x n matrix t (strict upper triangle set to 0), or false
     * when a pivot is not positive. The same arithmetic as EJML's inner-product {@code CholeskyDecompositionInner_DDRM}
     * (which {@link DecompositionFactory_DDRM#chol} picks below {@code EjmlParameters.SWITCH_BLOCK64_CHOLESKY}):
     * L[j][i] = (A[i][j] - sum_{k &lt; i} L[i][k] L[j][k]) * (1 / L[i][i]), the sum taken in increasing k from the
     * upper-triangle entry A[i][j], so the factor is bit for bit EJML's. Only the order in which the entries are
     * computed differs: row by row, four rows j at a time against two earlier rows i at a time, so each pair of rows
     * read from memory serves eight independent sums (EJML goes column by column and reads all later rows once per
     * column).
     */
    static boolean decomposeLower(double[] t, int n) {
        double[] inv = new double[n];
        int j0 = 0;
        for (; j0 + 3 < n; j0 += 4) {
            int r0 = j0 * n;
            int r1 = r0 + n;
            int r2 = r1 + n;
            int r3 = r2 + n;
            // two earlier rows i, i + 1 at a time (j0 is a multiple of 4, so they pair up): eight independent sums
            // per k from six loads; the sums of row i + 1 take their k = i term after L[j][i] is final, so every sum
            // still runs over k in increasing order
            for (int i = 0; i < j0; i += 2) {
                int ri = i * n;
                int rh = ri + n;
                double s0 = t[ri + j0];
                double s1 = t[ri + j0 + 1];
                double s2 = t[ri + j0 + 2];
                double s3 = t[ri + j0 + 3];
                double u0 = t[rh + j0];
                double u1 = t[rh + j0 + 1];
                double u2 = t[rh + j0 + 2];
                double u3 = t[rh + j0 + 3];
                for (int k = 0; k < i; k++) {
                    double lik = t[ri + k];
                    double lhk = t[rh + k];
                    double x0 = t[r0 + k];
                    double x1 = t[r1 + k];
                    double x2 = t[r2 + k];
                    double x3 = t[r3 + k];
                    s0 -= lik * x0;
                    s1 -= lik * x1;
                    s2 -= lik * x2;
                    s3 -= lik * x3;
                    u0 -= lhk * x0;
                    u1 -= lhk * x1;
                    u2 -= lhk * x2;
                    u3 -= lhk * x3;
                }
                double d = inv[i];
                double y0 = s0 * d;
                double y1 = s1 * d;
                double y2 = s2 * d;
                double y3 = s3 * d;
                t[r0 + i] = y0;
                t[r1 + i] = y1;
                t[r2 + i] = y2;
                t[r3 + i] = y3;
                double lhi = t[rh + i];
                double e = inv[i + 1];
                t[r0 + i + 1] = (u0 - lhi * y0) * e;
                t[r1 + i + 1] = (u1 - lhi * y1) * e;
                t[r2 + i + 1] = (u2 - lhi * y2) * e;
                t[r3 + i + 1] = (u3 - lhi * y3) * e;
            }
            for (int j = j0; j < j0 + 4; j++) {
                if (!finishRow(t, n, j, j0, inv)) {
                    return false;
                }
            }
        }
        for (int j = j0; j < n; j++) {
            if (!finishRow(t, n, j, 0, inv)) {
                return false;
            }
        }
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(t, i * n + i + 1, i * n + n, 0.0);
        }
        return true;
    }

    /** Entries L[j][from .. j-1] and the pivot L[j][j] of row j (the entries before {@code from} are done). */
    private static boolean finishRow(double[] t, int n, int j, int from, double[] inv) {
        int rj = j * n;
        for (int i = from; i < j; i++) {
            int ri = i * n;
            double s = t[ri + j];
            for (int k = 0; k < i; k++) {
                s -= t[ri + k] * t[rj + k];
            }
            t[rj + i] = s * inv[i];
        }
        double d = t[rj + j];
        for (int k = 0; k < j; k++) {
            d -= t[rj + k] * t[rj + k];
        }
        if (d <= 0.0) {
            return false;
        }
        double ljj = Math.sqrt(d);
        t[rj + j] = ljj;
        inv[j] = 1.0 / ljj;
        return true;
    }

    private static boolean validFactor(DMatrixRMaj lower) {
        int n = lower.numRows;
        for (int i = 0; i < n; i++) {
            double d = lower.data[i * n + i];
            if (!(d > 0) || Double.isInfinite(d)) {
                return false;
            }
        }
        for (double v : lower.data) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    private static void checkFiniteAndSymmetric(DMatrixRMaj a) {
        int n = a.numRows;
        double[] d = a.data;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double aij = d[i * n + j];
                double aji = d[j * n + i];
                if (!Double.isFinite(aij) || !Double.isFinite(aji)) {
                    throw new NumericalException(String.format(Locale.ROOT,
                            "Cholesky: the %d x %d matrix has a non-finite entry at (%d, %d) or (%d, %d): %s, %s; "
                                    + "check the inputs and hyperparameters that produced it", n, n, i, j, j, i, aij, aji));
                }
                if (aij == aji) {
                    continue;
                }
                double scale = Math.max(Math.sqrt(Math.abs(d[i * n + i] * d[j * n + j])), Math.abs(aij));
                if (Math.abs(aij - aji) > 1e-8 * scale) {
                    throw new NumericalException(String.format(Locale.ROOT,
                            "Cholesky: the %d x %d matrix is not symmetric: A[%d][%d] = %.17g but A[%d][%d] = %.17g",
                            n, n, i, j, aij, j, i, aji));
                }
            }
        }
    }

    private static String failureMessage(DMatrixRMaj a, JitterPolicy policy, double meanDiag, boolean overwritten) {
        int n = a.numRows;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Cholesky factorisation failed: the %d x %d matrix is not positive definite", n, n));
        if (!(meanDiag > 0)) {
            sb.append(String.format(Locale.ROOT, " (mean diagonal %.3g <= 0, so no relative jitter can help)", meanDiag));
        } else {
            double last = policy.relativeJitter(policy.attempts() - 1);
            sb.append(String.format(Locale.ROOT, " even with diagonal jitter up to %.1e x mean diagonal %.4g (%d attempts, %s)",
                    last, meanDiag, policy.attempts(), policy));
        }
        sb.append(". ").append(overwritten ? "No condition estimate: the matrix was factored in its own storage"
                : conditionEstimate(a)).append(". Typical causes: duplicated or nearly duplicated inputs "
                + "with a very long lengthscale, a diverged hyperparameter, or a matrix that is not a covariance.");
        return sb.toString();
    }

    /** Extreme eigenvalues and |max|/|min| for n up to 2000, a diagonal-ratio lower bound above. */
    static String conditionEstimate(DMatrixRMaj a) {
        int n = a.numRows;
        if (n > EIGEN_ESTIMATE_MAX_SIZE) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                min = Math.min(min, a.data[i * n + i]);
                max = Math.max(max, a.data[i * n + i]);
            }
            return String.format(Locale.ROOT, "Diagonal from %.3e to %.3e (condition number of an SPD matrix would be at "
                    + "least %.3e; eigenvalues not computed above n = %d)", min, max, max / min, EIGEN_ESTIMATE_MAX_SIZE);
        }
        DMatrixRMaj sym = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sym.data[i * n + j] = 0.5 * (a.data[i * n + j] + a.data[j * n + i]);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, false, true);
        if (!eig.decompose(sym)) {
            return "Eigenvalues could not be computed";
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double ev = eig.getEigenvalue(i).real;
            min = Math.min(min, ev);
            max = Math.max(max, ev);
        }
        double cond = Math.abs(max) / Math.abs(min);
        return String.format(Locale.ROOT, "Eigenvalues from %.3e to %.3e, condition estimate |max|/|min| = %.3e%s",
                min, max, cond, min <= 0 ? " (smallest eigenvalue <= 0: not positive definite at all)" : "");
    }
}
