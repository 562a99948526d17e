package fsil.methods.ppca;

/**
 * The finalised PPCA model of one class (paper Sec. III-E): mean mu, the top q_c covariance eigenpairs (rows l_i of
 * L, eigenvalues d_i) and Sigma = L^T D L + lambda I. Immutable; O(q_c d + d) doubles.
 *
 * <p>Score of a query x with r = x - mu and projections p_i = l_i . r (Theorem 1, Eq. 10):
 * <pre>
 *   r(x) = (||r||^2 - sum_i d_i/(d_i + lambda) p_i^2) / lambda
 *        = (||r||^2 - sum_i p_i^2) / lambda + sum_i p_i^2 / (d_i + lambda)
 * </pre>
 * The second line is the same number written as the squared residual off the subspace (clamped at 0 against
 * rounding) over lambda plus the in-subspace part; it is what {@link #scoreBlock} computes. The log-likelihood
 * variant adds log|Sigma| = (d - q_c) log lambda + sum_i log(d_i + lambda) (Eq. 11), giving -2 log N(x | mu, Sigma)
 * without the (2 pi)^(d/2) constant (Eq. 6).
 */
final class ClassModel {
    final int dim;
    final long count;
    final double[] mean;
    /** q_c, the number of kept components. */
    final int rank;
    /** q_c x d row-major, orthonormal rows. */
    final double[] basis;
    /** Covariance eigenvalues d_i (decreasing). */
    final double[] variances;
    /** 1 / (d_i + lambda). */
    final double[] inverseVariances;
    final double lambda;
    /** log|Sigma| (Eq. 11). */
    final double logDet;
    /** How the eigenpairs were computed (diagnostics). */
    final TopEigen.Pairs eigen;

    private ClassModel(int dim, long count, double[] mean, TopEigen.Pairs eigen, double lambda) {
        this.dim = dim;
        this.count = count;
        this.mean = mean;
        this.eigen = eigen;
        this.rank = eigen.count();
        this.basis = eigen.vectors();
        this.variances = eigen.values();
        this.lambda = lambda;
        this.inverseVariances = new double[rank];
        double ld = (dim - rank) * Math.log(lambda);
        for (int i = 0; i < rank; i++) {
            inverseVariances[i] = 1.0 / (variances[i] + lambda);
            ld += Math.log(variances[i] + lambda);
        }
        this.logDet = ld;
    }

    /**
     * Fits the model to a class's moments: q_c = min(q, n - 1, d) components of the covariance M2 / (n - ddof)
     * (fewer when the covariance has numerically zero eigenvalues).
     */
    static ClassModel fit(ClassStatistics s, int q, double lambda, double ddof, TopEigen.Solver solver, long seed) {
        long n = s.count();
        int k = (int) Math.min(Math.min(q, n - 1), s.dimension());
        TopEigen.Pairs pairs = TopEigen.solve(s.covariance(ddof), k, lambda, solver, seed);
        return new ClassModel(s.dimension(), n, s.mean(), pairs, lambda);
    }

    /** A model from given parts (tests, benchmarks): eigenpairs already computed. */
    static ClassModel of(long count, double[] mean, TopEigen.Pairs pairs, double lambda) {
        return new ClassModel(mean.length, count, mean.clone(), pairs, lambda);
    }

    /**
     * Scores {@code rows} queries (row-major doubles in {@code x}) against this class and writes score i to
     * {@code out[outOffset + i * outStride]}.
     *
     * @param residual a buffer of at least d doubles
     * @param logLik   add log|Sigma| (Eq. 6) instead of the plain Mahalanobis score (Eq. 7)
     */
    void scoreBlock(double[] x, int rows, double[] residual, boolean logLik, double[] out, int outOffset,
                    int outStride) {
        final int d = dim;
        final double[] mu = mean;
        final double[] l = basis;
        final double[] iv = inverseVariances;
        final double add = logLik ? logDet : 0.0;
        for (int i = 0; i < rows; i++) {
            int xo = i * d;
            double norm2 = 0;
            for (int t = 0; t < d; t++) {
                double v = x[xo + t] - mu[t];
                residual[t] = v;
                norm2 += v * v;
            }
            double inSubspace = 0;
            double weighted = 0;
            int j = 0;
            // four basis rows per pass over the residual: one load of r[t] feeds four accumulators
            for (; j + 4 <= rank; j += 4) {
                int o0 = j * d;
                int o1 = o0 + d;
                int o2 = o1 + d;
                int o3 = o2 + d;
                double p0 = 0;
                double p1 = 0;
                double p2 = 0;
                double p3 = 0;
                for (int t = 0; t < d; t++) {
                    double rt = residual[t];
                    p0 += rt * l[o0 + t];
                    p1 += rt * l[o1 + t];
                    p2 += rt * l[o2 + t];
                    p3 += rt * l[o3 + t];
                }
                double s0 = p0 * p0;
                double s1 = p1 * p1;
                double s2 = p2 * p2;
                double s3 = p3 * p3;
                inSubspace += s0 + s1 + s2 + s3;
                weighted += s0 * iv[j] + s1 * iv[j + 1] + s2 * iv[j + 2] + s3 * iv[j + 3];
            }
            for (; j < rank; j++) {
                int o = j * d;
                double p = 0;
                for (int t = 0; t < d; t++) {
                    p += residual[t] * l[o + t];
                }
                double s = p * p;
                inSubspace += s;
                weighted += s * iv[j];
            }
            double offSubspace = Math.max(0.0, norm2 - inSubspace);
            out[outOffset + i * outStride] = offSubspace / lambda + weighted + add;
        }
    }

    /** The score of one query in the literal form of Eq. (10) (tests). */
    double scoreEq10(double[] x) {
        double norm2 = 0;
        double[] r = new double[dim];
        for (int t = 0; t < dim; t++) {
            r[t] = x[t] - mean[t];
            norm2 += r[t] * r[t];
        }
        double u2 = 0;
        for (int j = 0; j < rank; j++) {
            double p = TopEigen.dot(r, 0, basis, j * dim, dim);
            double u = Math.sqrt(variances[j] / (variances[j] + lambda)) * p;
            u2 += u * u;
        }
        return norm2 / lambda - u2 / lambda;
    }

    /** Bytes of the arrays this model keeps. */
    long memoryBytes() {
        return 8L * (dim + (long) rank * dim + 2L * rank) + 96;
    }
}
