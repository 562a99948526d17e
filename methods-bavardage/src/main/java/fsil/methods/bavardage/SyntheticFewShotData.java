package fsil.methods.bavardage;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.QueryCounts;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Seeded synthetic "backbone features" for BAVARDAGE's benchmark and tests: base and novel classes drawn from the
 * same model, so that statistics of the base classes transfer to novel ones as the method assumes.
 *
 * <p>Model (dimension D): x = o + m_c + e with a shared offset o (features are not centred, as after a ReLU),
 * class means m_c = separation * A g_c / sqrt(L) (A: D x L Gaussian, g_c ~ N(0, I_L), so ||m_c|| is about
 * separation * sqrt(D)), and within-class noise e = diag(sigma) u + B h: independent noise with per-dimension scales
 * sigma_j log-uniform in [0.3, 3] (u ~ N(0, I_D)) plus {@code nuisance} shared high-variance directions
 * (B: D x nuisance with N(0, 1) entries, h ~ N(0, nuisanceScale^2 I)). The anisotropic within-class noise is what
 * the whitening with the base scatter is meant to remove.
 */
public final class SyntheticFewShotData {
    private final int dim;
    private final LabeledData base;
    private final LabeledData novel;
    private final int[] novelClasses;
    private final int[][] novelRows;

    private SyntheticFewShotData(int dim, LabeledData base, LabeledData novel, int[] novelClasses, int[][] novelRows) {
        this.dim = dim;
        this.base = base;
        this.novel = novel;
        this.novelClasses = novelClasses;
        this.novelRows = novelRows;
    }

    /**
     * @param seed          everything is a function of it
     * @param dim           feature dimension D
     * @param baseClasses   number of base classes (ids 0..baseClasses-1)
     * @param basePerClass  samples per base class
     * @param novelClasses  number of novel classes (ids baseClasses..)
     * @param novelPerClass samples per novel class
     * @param separation    scale of the class means relative to the noise
     * @param nuisance      number of shared high-variance noise directions
     * @param nuisanceScale their standard deviation
     */
    public static SyntheticFewShotData generate(long seed, int dim, int baseClasses, int basePerClass, int novelClasses,
                                                int novelPerClass, double separation, int nuisance,
                                                double nuisanceScale) {
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "synthetic-model"));
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        int latent = Math.min(dim, 32);
        double[] offset = new double[dim];
        double[] sigma = new double[dim];
        double[] a = new double[dim * latent];
        double[] b = new double[dim * nuisance];
        for (int j = 0; j < dim; j++) {
            offset[j] = 0.5 + 0.25 * g.sample();
            sigma[j] = 0.3 * Math.pow(10, rng.nextDouble());
        }
        for (int i = 0; i < a.length; i++) {
            a[i] = g.sample();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = g.sample();
        }
        Model m = new Model(dim, latent, nuisance, offset, sigma, a, b, separation, nuisanceScale);
        LabeledData base = m.sample(RandomStreams.create(RandomStreams.derive(seed, "base")), 0, baseClasses,
                basePerClass);
        LabeledData novel = m.sample(RandomStreams.create(RandomStreams.derive(seed, "novel")), baseClasses,
                novelClasses, novelPerClass);
        int[] ids = new int[novelClasses];
        int[][] rows = new int[novelClasses][novelPerClass];
        for (int c = 0; c < novelClasses; c++) {
            ids[c] = baseClasses + c;
            for (int s = 0; s < novelPerClass; s++) {
                rows[c][s] = c * novelPerClass + s;
            }
        }
        return new SyntheticFewShotData(dim, base, novel, ids, rows);
    }

    private record Model(int dim, int latent, int nuisance, double[] offset, double[] sigma, double[] a, double[] b,
                         double separation, double nuisanceScale) {
        LabeledData sample(UniformRandomProvider rng, int firstClass, int classes, int perClass) {
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
            float[] x = new float[classes * perClass * dim];
            int[] y = new int[classes * perClass];
            double[] mean = new double[dim];
            double[] z = new double[Math.max(latent, nuisance)];
            double scale = separation / Math.sqrt(latent);
            int row = 0;
            for (int c = 0; c < classes; c++) {
                for (int t = 0; t < latent; t++) {
                    z[t] = g.sample();
                }
                for (int j = 0; j < dim; j++) {
                    double s = 0;
                    for (int t = 0; t < latent; t++) {
                        s += a[j * latent + t] * z[t];
                    }
                    mean[j] = offset[j] + scale * s;
                }
                for (int s = 0; s < perClass; s++) {
                    for (int t = 0; t < nuisance; t++) {
                        z[t] = nuisanceScale * g.sample();
                    }
                    int o = row * dim;
                    for (int j = 0; j < dim; j++) {
                        double v = mean[j] + sigma[j] * g.sample();
                        for (int t = 0; t < nuisance; t++) {
                            v += b[j * nuisance + t] * z[t];
                        }
                        x[o + j] = (float) v;
                    }
                    y[row++] = firstClass + c;
                }
            }
            return new LabeledData(FeatureMatrix.wrap(classes * perClass, dim, x), y);
        }
    }

    public int dimension() {
        return dim;
    }

    /** Labelled base-class features (for {@link fsil.api.Background}). */
    public LabeledData base() {
        return base;
    }

    /** All novel-class features. */
    public LabeledData novel() {
        return novel;
    }

    /**
     * Samples an episode from the novel classes: {@code ways} distinct classes, {@code shots} support samples each
     * (shot-major order), then {@code queryCounts[k]} queries of the k-th chosen class (class-blocked), support and
     * queries disjoint.
     */
    public LabeledEpisode episode(UniformRandomProvider rng, int ways, int shots, int[] queryCounts) {
        if (queryCounts.length != ways) {
            throw new IllegalArgumentException(queryCounts.length + " query counts for " + ways + " ways");
        }
        int[] classPerm = RandomStreams.permutation(novelClasses.length, rng);
        int[][] picks = new int[ways][];
        int nq = 0;
        for (int k = 0; k < ways; k++) {
            int[] rows = novelRows[classPerm[k]];
            if (shots + queryCounts[k] > rows.length) {
                throw new IllegalArgumentException("class has " + rows.length + " samples, episode needs "
                        + (shots + queryCounts[k]));
            }
            int[] perm = RandomStreams.permutation(rows.length, rng);
            picks[k] = new int[shots + queryCounts[k]];
            for (int i = 0; i < picks[k].length; i++) {
                picks[k][i] = rows[perm[i]];
            }
            nq += queryCounts[k];
        }
        int[] supportIdx = new int[ways * shots];
        for (int s = 0; s < shots; s++) {
            for (int k = 0; k < ways; k++) {
                supportIdx[s * ways + k] = picks[k][s];
            }
        }
        int[] queryIdx = new int[nq];
        int q = 0;
        for (int k = 0; k < ways; k++) {
            for (int i = 0; i < queryCounts[k]; i++) {
                queryIdx[q++] = picks[k][shots + i];
            }
        }
        LabeledData query = novel.select(queryIdx);
        return new LabeledEpisode(novel.select(supportIdx), query.features(), query.labels());
    }

    /** {@code perClass} queries for each of {@code ways} classes. */
    public static int[] balancedCounts(int ways, int perClass) {
        int[] c = new int[ways];
        java.util.Arrays.fill(c, perClass);
        return c;
    }

    /** Query counts of the Dirichlet-unbalanced protocol: core's {@link QueryCounts} rule, Dirichlet(alpha). */
    public static int[] dirichletCounts(UniformRandomProvider rng, int ways, int total, double alpha) {
        return QueryCounts.dirichlet(rng, ways, total, alpha, counts -> true);
    }
}
