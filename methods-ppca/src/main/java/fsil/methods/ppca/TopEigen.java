package fsil.methods.ppca;

import fsil.core.math.NumericalException;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

import java.util.Locale;

/**
 * The k largest eigenpairs of a class covariance C (a {@link Scatter}), three ways:
 * <ul>
 *   <li>{@link #full}: EJML's symmetric eigen decomposition of the d x d matrix (O(d^3)); the reference.</li>
 *   <li>{@link #gram}: for C = s F^T F with r &lt; d factor rows, the eigen decomposition of the r x r Gram matrix
 *   s F F^T (the "n x n trick"): same non-zero eigenvalues, eigenvectors v_i = F^T u_i / ||F^T u_i||
 *   (O(r^2 d + r^3)); exact.</li>
 *   <li>{@link #krylov}: randomized block Krylov (Musco and Musco, NeurIPS 2015): a Gaussian start block, block
 *   Lanczos expansion with full re-orthogonalisation (classical Gram-Schmidt twice), Rayleigh-Ritz on the basis,
 *   and an a-posteriori stop rule on the <em>scores</em> (below). Cost O(m d (r + m)) for a basis of m vectors;
 *   it never forms the d x d matrix when C is given by its factor.</li>
 * </ul>
 *
 * <p><b>Stop rule.</b> With Ritz values t_1 &gt;= t_2 &gt;= ... and residual norms rho_i = ||C v_i - t_i v_i||, the
 * Davis-Kahan sin-theta bound gives the angle between the computed and the exact top-k subspaces,
 * a &lt;= sqrt(sum_{i&lt;=k} rho_i^2) / (t_k - t_{k+1} - rho_{k+1}). A PPCA covariance is lambda I plus the top-k
 * part, so its Mahalanobis score x^T Sigma^-1 x changes by at most a relative
 * a sqrt((t_1 + lambda)/lambda) + a^2 t_1/lambda when the subspace turns by a (the cross terms between a direction of
 * variance t_1 and one of variance lambda). The iteration stops when that estimate is below
 * {@link #SCORE_TOLERANCE}. If it does not get there within a work budget (a small spectral gap at k), the caller
 * falls back to an exact solver: speed is never bought with accuracy.
 *
 * <p>Eigenvalues at or below d eps t_1 are numerically zero; their eigenvectors are arbitrary and they are dropped
 * (so a class may keep fewer than k components). Eigenvalues are returned in decreasing order, eigenvectors as
 * orthonormal rows.
 */
final class TopEigen {
    /**
     * Target of the Krylov stop rule's estimate of the relative score error: a factor 10 below the 1e-6 the tests
     * require against {@link #full} (the estimate is a worst case over queries; {@code EigenSolverTest} and the setup
     * of {@code PpcaFitBench} check the actual differences to the full solver).
     */
    static final double SCORE_TOLERANCE = 1e-7;
    /**
     * Multiply-adds equivalent to one n^3 unit of EJML's symmetric eigen decomposition with vectors, relative to its
     * matrix product (a ratio measured once at n = 640). {@code PpcaFitBench} (benchmarks module,
     * benchmarks/README.md) times the solver paths this cost model chooses between.
     */
    static final double EIGEN_COST = 3.0;
    /**
     * Krylov block size. Smaller blocks need fewer vectors for the same accuracy on power-law spectra (the counts
     * measured at d = 640, q = 20 are in docs/ppca-results.md; the {@code krylov_dim_mean} diagnostic reports them for
     * a run); 2 columns still reveal a double eigenvalue, and {@link #clustered} catches higher multiplicities.
     */
    static final int BLOCK = 2;
    /** Ritz values closer than this (relative to the largest) count as copies of one eigenvalue. */
    private static final double CLUSTER = 1e-9;
    /** Rows of a new Krylov block whose norm falls below this fraction by orthogonalisation are dropped. */
    private static final double DEFLATION = 1e-10;

    /** The computation that produced a result. */
    enum Method { NONE, FULL, GRAM, KRYLOV }

    /**
     * Eigenpairs in decreasing order.
     *
     * @param values          the eigenvalues (count of them)
     * @param vectors         count x d row-major orthonormal eigenvectors
     * @param method          how they were computed
     * @param krylovDimension basis size of the Krylov attempt (0 when none was made)
     * @param fallback        the Krylov attempt did not converge within its budget and an exact solver was used
     */
    record Pairs(double[] values, double[] vectors, Method method, int krylovDimension, boolean fallback) {
        int count() {
            return values.length;
        }
    }

    private TopEigen() {
    }

    /**
     * The top {@code k} eigenpairs of {@code c} with the given solver.
     *
     * @param lambda the PPCA noise variance (sets the Krylov stop rule)
     * @param seed   seed of the Krylov start block
     */
    static Pairs solve(Scatter c, int k, double lambda, PpcaMethod.Solver solver, long seed) {
        int kk = Math.min(k, c.rankBound());
        if (kk <= 0 || c.scale() == 0) {
            return new Pairs(new double[0], new double[0], Method.NONE, 0, false);
        }
        boolean gramApplies = c.factored() && c.rows() < c.dim();
        return switch (solver) {
            case FULL -> full(c, kk);
            case GRAM -> gramApplies ? gram(c, kk) : full(c, kk);
            case RANDOMIZED -> krylovOrExact(c, kk, lambda, seed, 2 * exactCost(c, kk), gramApplies);
            case AUTO -> {
                double exact = exactCost(c, kk);
                boolean worthIt = 4 * (kk + 1) <= c.rankBound() && typicalKrylovCost(c, kk) < exact / 4;
                yield worthIt ? krylovOrExact(c, kk, lambda, seed, exact / 2, gramApplies)
                        : gramApplies ? gram(c, kk) : full(c, kk);
            }
        };
    }

    private static Pairs krylovOrExact(Scatter c, int k, double lambda, long seed, double budget, boolean gramApplies) {
        Pairs p = krylov(c, k, lambda, seed, budget);
        if (p != null) {
            return p;
        }
        Pairs exact = gramApplies ? gram(c, k) : full(c, k);
        return new Pairs(exact.values(), exact.vectors(), exact.method(), 0, true);
    }

    /**
     * Multiply-adds of a Krylov run with a basis of 4k + 10 vectors, about what the stop rule needed on power-law
     * spectra (the PpcaFitBench data): the products with C, the re-orthogonalisation and about ten Rayleigh-Ritz steps.
     */
    static double typicalKrylovCost(Scatter c, int k) {
        double m = Math.min(4.0 * k + 10, Math.min(c.dim(), c.rankBound() + BLOCK));
        double d = c.dim();
        return m * c.applyCost() + 2 * m * m * d + 10 * (EIGEN_COST * m * m * m / 4 + 2.0 * (k + 1) * m * d);
    }

    /** Estimated multiply-adds of the exact solver for {@code c} (Gram when it applies, else full). */
    static double exactCost(Scatter c, int k) {
        double d = c.dim();
        if (c.factored() && c.rows() < c.dim()) {
            double r = c.rows();
            return r * r * d + EIGEN_COST * r * r * r + k * r * d;
        }
        double form = c.factored() ? c.rows() * d * d / 2 : 0;
        return form + EIGEN_COST * d * d * d;
    }

    // ------------------------------------------------------------------------------------------------------------
    /** The full d x d symmetric eigen decomposition (EJML), top k kept. */
    static Pairs full(Scatter c, int k) {
        int d = c.dim();
        DMatrixRMaj a = c.toDense();
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(a)) {
            throw new NumericalException("the symmetric eigen decomposition of a " + d + " x " + d
                    + " class covariance did not converge");
        }
        double[] all = new double[d];
        for (int i = 0; i < d; i++) {
            all[i] = eig.getEigenvalue(i).getReal();
        }
        int[] top = largest(all, k);
        int kept = numericalRank(all, top, d, c.rows());
        double[] values = new double[kept];
        double[] vectors = new double[kept * d];
        for (int i = 0; i < kept; i++) {
            values[i] = all[top[i]];
            DMatrixRMaj v = eig.getEigenVector(top[i]);
            double norm = 0;
            for (int j = 0; j < d; j++) {
                norm += v.data[j] * v.data[j];
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < d; j++) {
                vectors[i * d + j] = v.data[j] / norm;
            }
        }
        return new Pairs(values, vectors, Method.FULL, 0, false);
    }

    /** Eigenpairs from the r x r Gram matrix of the factor rows (exact; for r &lt; d). */
    static Pairs gram(Scatter c, int k) {
        DMatrixRMaj f = c.factor();
        if (f == null) {
            throw new IllegalArgumentException("the Gram solver needs the factor form of the covariance");
        }
        int r = f.numRows;
        int d = c.dim();
        DMatrixRMaj g = new DMatrixRMaj(r, r);
        CommonOps_DDRM.multOuter(f, g);
        CommonOps_DDRM.scale(c.scale(), g);
        symmetrise(g);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(r, true, true);
        if (!eig.decompose(g)) {
            throw new NumericalException("the symmetric eigen decomposition of a " + r + " x " + r
                    + " Gram matrix did not converge");
        }
        double[] all = new double[r];
        for (int i = 0; i < r; i++) {
            all[i] = eig.getEigenvalue(i).getReal();
        }
        int[] top = largest(all, Math.min(k, r));
        int kept = numericalRank(all, top, d, r);
        DMatrixRMaj ut = new DMatrixRMaj(kept, r);
        for (int i = 0; i < kept; i++) {
            DMatrixRMaj u = eig.getEigenVector(top[i]);
            System.arraycopy(u.data, 0, ut.data, i * r, r);
        }
        DMatrixRMaj vt = new DMatrixRMaj(kept, d);
        CommonOps_DDRM.mult(ut, f, vt);
        double[] values = new double[kept];
        for (int i = 0; i < kept; i++) {
            values[i] = all[top[i]];
        }
        // v_i = F^T u_i / ||F^T u_i||; Gram-Schmidt removes the O(eps t_1 / t_i) loss of orthogonality of the
        // smaller components (Theorem 1 needs orthonormal rows).
        orthonormaliseRows(vt.data, kept, d);
        return new Pairs(values, vt.data, Method.GRAM, 0, false);
    }

    // ------------------------------------------------------------------------------------------------------------
    /**
     * Randomized block Krylov with the score-based stop rule (class javadoc).
     *
     * @param budget multiply-adds after which the attempt is abandoned
     * @return the pairs, or null when the budget ran out before the stop rule was met
     */
    static Pairs krylov(Scatter c, int k, double lambda, long seed, double budget) {
        int d = c.dim();
        int rank = c.rankBound();
        int want = k + 1 <= rank ? k + 1 : k;
        int block = BLOCK;
        int capacity = Math.min(d, rank + block);
        Scatter.Operator op = c.operator();
        double[][] basis = new double[capacity][];  // rows q_i, orthonormal
        double[][] image = new double[capacity][];  // rows C q_i
        double[] t = new double[capacity * capacity]; // q_i^T C q_j
        double[][] next = gaussian(block, d, seed);
        int m = 0;
        double spent = 0;
        // the k-th Ritz pair cannot be resolved from a basis much smaller than 2k
        int nextCheck = Math.max(want + 1, 2 * want);
        int lastM = 0;
        double lastEstimate = Double.POSITIVE_INFINITY;
        while (true) {
            int added = orthogonalise(next, basis, m, capacity, d);
            int rows = Math.max(added, 1);
            spent += 4.0 * rows * m * d + (double) rows * rows * d;
            boolean invariant = added == 0;
            if (added > 0) {
                double[][] img = new double[added][d];
                op.apply(next, added, img);
                for (int i = 0; i < added; i++) {
                    basis[m + i] = next[i];
                    image[m + i] = img[i];
                }
                // rows m..m+added of T against all basis vectors so far
                int cols = m + added;
                double[] coef = new double[added * cols];
                RowKernels.dots(next, added, image, cols, d, coef, cols);
                for (int i = 0; i < added; i++) {
                    for (int j = 0; j < cols; j++) {
                        double v = coef[i * cols + j];
                        t[(m + i) * capacity + j] = v;
                        t[j * capacity + m + i] = v;
                    }
                }
                spent += added * c.applyCost() + (double) added * cols * d;
                m += added;
            }
            // the basis spans span(start block) + range(C), which holds every eigenvector of a non-zero eigenvalue
            boolean whole = m >= capacity;
            if (m >= want && (invariant || whole || m >= nextCheck)) {
                Ritz ritz = rayleighRitz(t, capacity, m, basis, image, want, d);
                spent += EIGEN_COST * m * m * m + 2.0 * want * m * d;
                if (whole || converged(ritz, k, want, lambda)) {
                    if (!whole && clustered(ritz.values, want, block, d)) {
                        // as many equal Ritz values as the block has columns: a multiple eigenvalue may have more
                        // copies than the Krylov space can see, so the top k cannot be certified
                        return null;
                    }
                    double[] values = java.util.Arrays.copyOf(ritz.values, k);
                    int kept = numericalRank(values, identity(k), d, c.rows());
                    return new Pairs(java.util.Arrays.copyOf(values, kept), flatten(ritz.vectors, kept, d),
                            Method.KRYLOV, m, false);
                }
                double estimate = scoreErrorEstimate(ritz, k, want, lambda);
                nextCheck = nextCheck(m, estimate, lastM, lastEstimate);
                lastM = m;
                lastEstimate = estimate;
            }
            if (invariant && m > 0 && m < want) {
                // C maps the basis into itself: it holds every eigenvector of a non-zero eigenvalue (the start block
                // has a component in each), so all of them are Ritz pairs and the rest of the spectrum is zero
                Ritz ritz = rayleighRitz(t, capacity, m, basis, image, m, d);
                if (clustered(ritz.values, m, block, d)) {
                    return null;
                }
                int kk = Math.min(k, m);
                int kept = numericalRank(ritz.values, identity(kk), d, c.rows());
                return new Pairs(java.util.Arrays.copyOf(ritz.values, kept), flatten(ritz.vectors, kept, d),
                        Method.KRYLOV, m, false);
            }
            if (invariant || whole) {
                return null;
            }
            if (spent > budget) {
                return null;
            }
            // next block: C applied to the newest block, orthogonalised on the next pass
            int from = m - added;
            next = new double[added][];
            for (int i = 0; i < added; i++) {
                next[i] = image[from + i].clone();
            }
        }
    }

    /** The first {@code count} rows as one row-major array. */
    private static double[] flatten(double[][] rows, int count, int d) {
        double[] out = new double[count * d];
        for (int i = 0; i < count; i++) {
            System.arraycopy(rows[i], 0, out, i * d, d);
        }
        return out;
    }

    /** Ritz values (decreasing) and the first {@code want} Ritz vectors with their residual norms. */
    private record Ritz(double[] values, double[][] vectors, double[] residuals) {
    }

    private static Ritz rayleighRitz(double[] t, int capacity, int m, double[][] basis, double[][] image, int want,
                                     int d) {
        DMatrixRMaj tm = new DMatrixRMaj(m, m);
        for (int i = 0; i < m; i++) {
            System.arraycopy(t, i * capacity, tm.data, i * m, m);
        }
        symmetrise(tm);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(m, true, true);
        if (!eig.decompose(tm)) {
            throw new NumericalException("the Rayleigh-Ritz eigen problem of size " + m + " did not converge");
        }
        double[] all = new double[m];
        for (int i = 0; i < m; i++) {
            all[i] = eig.getEigenvalue(i).getReal();
        }
        int[] top = largest(all, want);
        double[] values = new double[want];
        double[][] v = new double[want][d];
        double[] cv = new double[d];
        double[] res = new double[want];
        for (int i = 0; i < want; i++) {
            values[i] = all[top[i]];
            double[] s = eig.getEigenVector(top[i]).data;
            double[] vi = v[i];
            RowKernels.combination(s, 0, 1.0, basis, m, vi, d);
            RowKernels.combination(s, 0, 1.0, image, m, cv, d);
            double r2 = 0;
            double norm = 0;
            for (int j = 0; j < d; j++) {
                double r = cv[j] - values[i] * vi[j];
                r2 += r * r;
                norm += vi[j] * vi[j];
            }
            norm = Math.sqrt(norm);
            res[i] = Math.sqrt(r2) / norm;
            for (int j = 0; j < d; j++) {
                vi[j] /= norm;
            }
        }
        return new Ritz(values, v, res);
    }

    /**
     * The a-posteriori estimate of the relative score error (class javadoc); infinite while the gap at k is not
     * resolved.
     */
    static double scoreErrorEstimate(Ritz r, int k, int want, double lambda) {
        double next = want > k ? r.values[k] : 0.0;
        double inSubspace = 1.0 / (Math.max(r.values[k - 1], 0) + lambda);
        double e = 0;
        for (int i = 0; i < k; i++) {
            double gap = r.values[i] - next;
            if (!(gap > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            e += r.residuals[i] * (Math.sqrt(Math.max(r.values[i], 0) / lambda) / gap + inSubspace);
        }
        return e;
    }

    /** The score-based stop rule of the class javadoc. */
    static boolean converged(Ritz r, int k, int want, double lambda) {
        return scoreErrorEstimate(r, k, want, lambda) <= SCORE_TOLERANCE;
    }

    /**
     * Basis size of the next Rayleigh-Ritz check. Once two checks gave finite, decreasing estimates, a geometric
     * decrease per vector predicts where the estimate reaches the tolerance, and the next check goes there, but at
     * most 25% further (Krylov convergence accelerates, so the prediction from early checks runs long); otherwise
     * the basis grows by 15% between checks. Each check costs an m x m eigen problem and the Ritz residuals.
     */
    static int nextCheck(int m, double estimate, int lastM, double lastEstimate) {
        int next = (int) Math.ceil(m * 1.15);
        if (Double.isFinite(estimate) && Double.isFinite(lastEstimate) && estimate < lastEstimate && lastM < m) {
            double perVector = Math.log(lastEstimate / estimate) / (m - lastM);
            double needed = Math.log(estimate / SCORE_TOLERANCE) / perVector;
            next = (int) Math.ceil(m + needed);
            next = Math.min(next, (int) Math.ceil(1.25 * m));
        }
        return Math.max(m + 1, next);
    }

    /**
     * Whether {@code block} or more of the first {@code want} Ritz values are equal to within {@link #CLUSTER}
     * relative: a block Krylov space sees at most {@code block} copies of a multiple eigenvalue. Numerically zero
     * values (at most d eps times the largest) do not count: they are dropped anyway.
     */
    static boolean clustered(double[] values, int want, int block, int d) {
        double top = Math.abs(values[0]);
        double tol = CLUSTER * top;
        double zero = top * d * Math.ulp(1.0);
        int run = 1;
        for (int i = 1; i < want && values[i] > zero; i++) {
            run = Math.abs(values[i - 1] - values[i]) <= tol ? run + 1 : 1;
            if (run >= block) {
                return true;
            }
        }
        return false;
    }

    /**
     * Orthogonalises the rows of {@code z} against the first {@code m} rows of {@code basis} (classical Gram-Schmidt,
     * twice) and among themselves (modified Gram-Schmidt), normalises them, and moves the survivors to the front of
     * {@code z}. Rows that lose all but {@link #DEFLATION} of their norm are dropped (they are already in the span).
     *
     * @return the number of rows kept (at most capacity - m)
     */
    private static int orthogonalise(double[][] z, double[][] basis, int m, int capacity, int d) {
        int b = z.length;
        double[] before = new double[b];
        for (int i = 0; i < b; i++) {
            before[i] = Math.sqrt(RowKernels.dot(z[i], z[i], d));
        }
        if (m > 0) {
            double[] coef = new double[b * m];
            for (int pass = 0; pass < 2; pass++) {
                RowKernels.dots(z, b, basis, m, d, coef, m);
                for (int i = 0; i < b; i++) {
                    RowKernels.subtract(z[i], coef, i * m, basis, m, d);
                }
            }
        }
        int kept = 0;
        for (int i = 0; i < b && m + kept < capacity; i++) {
            double[] zi = z[i];
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j < kept; j++) {
                    double[] zj = z[j];
                    double p = RowKernels.dot(zi, zj, d);
                    for (int l = 0; l < d; l++) {
                        zi[l] -= p * zj[l];
                    }
                }
            }
            double norm = Math.sqrt(RowKernels.dot(zi, zi, d));
            if (!(norm > DEFLATION * before[i]) || norm == 0) {
                continue;
            }
            for (int l = 0; l < d; l++) {
                zi[l] = zi[l] / norm;
            }
            z[kept] = zi;
            kept++;
        }
        return kept;
    }

    private static double[][] gaussian(int rows, int d, long seed) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] z = new double[rows][d];
        for (double[] row : z) {
            for (int i = 0; i < d; i++) {
                row[i] = g.sample();
            }
        }
        return z;
    }

    // ------------------------------------------------------------------------------------------------------------
    /** Gram-Schmidt (twice per row) on k row-major rows of length d, in order. */
    static void orthonormaliseRows(double[] v, int k, int d) {
        for (int i = 0; i < k; i++) {
            int off = i * d;
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j < i; j++) {
                    double p = dot(v, off, v, j * d, d);
                    for (int l = 0; l < d; l++) {
                        v[off + l] -= p * v[j * d + l];
                    }
                }
            }
            double norm = Math.sqrt(dot(v, off, v, off, d));
            for (int l = 0; l < d; l++) {
                v[off + l] /= norm;
            }
        }
    }

    static double dot(double[] a, int ao, double[] b, int bo, int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += a[ao + i] * b[bo + i];
        }
        return s;
    }

    private static void symmetrise(DMatrixRMaj a) {
        int n = a.numRows;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double v = 0.5 * (a.data[i * n + j] + a.data[j * n + i]);
                a.data[i * n + j] = v;
                a.data[j * n + i] = v;
            }
        }
    }

    /** Indices of the k largest values, largest first (ties: the smaller index first). */
    static int[] largest(double[] values, int k) {
        int n = values.length;
        int[] order = new int[Math.min(k, n)];
        boolean[] taken = new boolean[n];
        for (int i = 0; i < order.length; i++) {
            int best = -1;
            for (int j = 0; j < n; j++) {
                if (!taken[j] && (best < 0 || values[j] > values[best])) {
                    best = j;
                }
            }
            taken[best] = true;
            order[i] = best;
        }
        return order;
    }

    private static int[] identity(int k) {
        int[] a = new int[k];
        for (int i = 0; i < k; i++) {
            a[i] = i;
        }
        return a;
    }

    /**
     * How many of the selected (decreasing) eigenvalues are numerically non-zero: above d eps times the largest
     * eigenvalue (rounding in a product of r x d factors is of that order) and positive.
     */
    static int numericalRank(double[] values, int[] selected, int d, int rows) {
        if (selected.length == 0) {
            return 0;
        }
        double tol = values[selected[0]] * Math.max(d, rows) * Math.ulp(1.0);
        int kept = 0;
        while (kept < selected.length && values[selected[kept]] > tol && values[selected[kept]] > 0) {
            kept++;
        }
        return kept;
    }
}
