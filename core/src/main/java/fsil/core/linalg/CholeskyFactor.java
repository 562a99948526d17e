package fsil.core.linalg;

import org.ejml.data.DMatrixRMaj;

/**
 * The lower-triangular factor L of A + j I = L L^T (j = {@link #jitter()}, usually 0 or tiny), with the
 * operations GP code needs: solves, log-determinant, quadratic forms, traces and diagonals of A^{-1}. Everything
 * goes through triangular solves; A^{-1} is never formed (the trace and the diagonal use one column at a time).
 * Immutable; the arrays it returns are fresh unless a method says "in place".
 */
public final class CholeskyFactor {
    private final DMatrixRMaj lower;
    private final double jitter;
    private final int attempts;

    CholeskyFactor(DMatrixRMaj lower, double jitter, int attempts) {
        this.lower = lower;
        this.jitter = jitter;
        this.attempts = attempts;
    }

    /** n. */
    public int size() {
        return lower.numRows;
    }

    /** L itself (not a copy, for speed): callers must not modify it. Its strict upper triangle is 0. */
    public DMatrixRMaj lower() {
        return lower;
    }

    /** The absolute jitter j that was added to the diagonal (0 if the matrix was factored as given). */
    public double jitter() {
        return jitter;
    }

    /** How many attempts of the {@link JitterPolicy} were needed (1 = the first). */
    public int attempts() {
        return attempts;
    }

    /** log det(A + j I) = 2 sum_i log L_ii. */
    public double logDet() {
        int n = size();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.log(lower.data[i * n + i]);
        }
        return 2 * s;
    }

    /** (A + jI)^{-1} B as a new matrix. */
    public DMatrixRMaj solve(DMatrixRMaj b) {
        DMatrixRMaj x = b.copy();
        solveInPlace(x);
        return x;
    }

    /** B := (A + jI)^{-1} B. */
    public void solveInPlace(DMatrixRMaj b) {
        Triangular.solveLower(lower, b);
        Triangular.solveLowerTranspose(lower, b);
    }

    /** (A + jI)^{-1} b as a new array. */
    public double[] solve(double[] b) {
        double[] x = b.clone();
        solveInPlace(x);
        return x;
    }

    /** b := (A + jI)^{-1} b. */
    public void solveInPlace(double[] b) {
        Triangular.solveLower(lower, b);
        Triangular.solveLowerTranspose(lower, b);
    }

    /** L^{-1} B as a new matrix (whitening: the columns of L^{-1} K_* give predictive variances). */
    public DMatrixRMaj solveLower(DMatrixRMaj b) {
        DMatrixRMaj x = b.copy();
        Triangular.solveLower(lower, x);
        return x;
    }

    /** B := L^{-1} B. */
    public void solveLowerInPlace(DMatrixRMaj b) {
        Triangular.solveLower(lower, b);
    }

    /** b := L^{-1} b. */
    public void solveLowerInPlace(double[] b) {
        Triangular.solveLower(lower, b);
    }

    /** L^{-T} B as a new matrix. */
    public DMatrixRMaj solveLowerTranspose(DMatrixRMaj b) {
        DMatrixRMaj x = b.copy();
        Triangular.solveLowerTranspose(lower, x);
        return x;
    }

    /** B := L^{-T} B. */
    public void solveLowerTransposeInPlace(DMatrixRMaj b) {
        Triangular.solveLowerTranspose(lower, b);
    }

    /** b := L^{-T} b. */
    public void solveLowerTransposeInPlace(double[] b) {
        Triangular.solveLowerTranspose(lower, b);
    }

    /** x^T (A + jI)^{-1} x = ||L^{-1} x||^2 (x is not modified). */
    public double quadForm(double[] x) {
        double[] y = x.clone();
        Triangular.solveLower(lower, y);
        double s = 0;
        for (double v : y) {
            s += v * v;
        }
        return s;
    }

    /**
     * diag(X^T (A + jI)^{-1} X), one value per column of the n x m matrix X: the squared norms of the columns of
     * L^{-1} X (e.g. k_*^T K^{-1} k_* for every test point at once).
     */
    public double[] columnQuadForms(DMatrixRMaj x) {
        DMatrixRMaj y = solveLower(x);
        int m = y.numCols;
        double[] out = new double[m];
        for (int i = 0; i < y.numRows; i++) {
            int r = i * m;
            for (int j = 0; j < m; j++) {
                double v = y.data[r + j];
                out[j] += v * v;
            }
        }
        return out;
    }

    /**
     * diag((A + jI)^{-1}): entry i is ||L^{-1} e_i||^2, computed one column at a time with a single O(n) buffer
     * (n^3/6 flops) instead of forming the inverse.
     */
    public double[] inverseDiagonal() {
        int n = size();
        double[] l = lower.data;
        double[] out = new double[n];
        double[] y = new double[n];
        for (int c = 0; c < n; c++) {
            // forward substitution for L y = e_c: y_k = 0 for k < c
            double s2 = 0;
            for (int i = c; i < n; i++) {
                int li = i * n;
                double s = i == c ? 1.0 : 0.0;
                for (int k = c; k < i; k++) {
                    s -= l[li + k] * y[k];
                }
                double yi = s / l[li + i];
                y[i] = yi;
                s2 += yi * yi;
            }
            out[c] = s2;
        }
        return out;
    }

    /** tr((A + jI)^{-1}) = sum of {@link #inverseDiagonal()}. */
    public double traceInverse() {
        double s = 0;
        for (double v : inverseDiagonal()) {
            s += v;
        }
        return s;
    }

    /** tr((A + jI)^{-1} M) for an n x n matrix M (e.g. the tr(K^{-1} Sigma) term of a Gaussian KL). */
    public double traceSolve(DMatrixRMaj m) {
        if (m.numRows != size() || m.numCols != size()) {
            throw new IllegalArgumentException("M must be " + size() + " x " + size() + ", got "
                    + m.numRows + " x " + m.numCols);
        }
        DMatrixRMaj x = solve(m);
        double s = 0;
        int n = size();
        for (int i = 0; i < n; i++) {
            s += x.data[i * n + i];
        }
        return s;
    }

    /** L z as a new array: a draw from N(0, A + jI) when z is standard normal. */
    public double[] multiplyLower(double[] z) {
        double[] out = new double[size()];
        Triangular.multiplyLower(lower, z, out);
        return out;
    }

    /** L Z as a new matrix: one N(0, A + jI) draw per column when Z is standard normal. */
    public DMatrixRMaj multiplyLower(DMatrixRMaj z) {
        return Triangular.multiplyLower(lower, z);
    }
}
