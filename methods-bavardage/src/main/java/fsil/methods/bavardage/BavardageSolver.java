package fsil.methods.bavardage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Solves one transductive task with a fixed configuration and base statistics (immutable, thread-safe):
 * <ol>
 *   <li>M, E: centre on the base mean and L2-normalise every row (support first, then queries);</li>
 *   <li>{@link Preprocessing#CODE}: S, the task's own span ({@link TaskSpan}), and V, the restricted whitening;
 *   {@link Preprocessing#PAPER}: the global sphering of Eq. 7;</li>
 *   <li>soft k-means initialisation on the normalised (unwhitened) data;</li>
 *   <li>n_step times: PLDA projection of the whitened data on the shrunk-centroid subspace, VB M-step, VB E-step,
 *   support clamped.</li>
 * </ol>
 * The Table 2 ablations stop after step 3 ({@link Variant#SOFTKMEANS}) or run the VB on the normalised data
 * without whitening and projection ({@link Variant#VB_NO_PLDA}: in span coordinates for CODE, in R^D for
 * PAPER).
 */
final class BavardageSolver {
    private final BavardageConfig config;
    private final BaseStatistics base;
    private final double[] sphering;
    private final double[] globalGains;

    BavardageSolver(BavardageConfig config, BaseStatistics base) {
        if (config.preprocessing() != base.kind()) {
            throw new IllegalArgumentException("configuration asks for " + config.preprocessing().id()
                    + " preprocessing but the base statistics were computed for " + base.kind().id());
        }
        this.config = config;
        this.base = base;
        boolean needSphering = base.kind() == Preprocessing.PAPER && config.variant() == Variant.BAVARDAGE;
        this.sphering = needSphering ? Whitening.globalSphering(base, config.sMax()) : null;
        this.globalGains = needSphering ? Whitening.globalGains(base, config.sMax()) : null;
    }

    BavardageConfig config() {
        return config;
    }

    BaseStatistics base() {
        return base;
    }

    /** Responsibilities of every row and numbers about the run. */
    record Result(double[] responsibilities, int rows, int classes, Map<String, Double> diagnostics) {
    }

    /**
     * @param support      row-major support features (float32, D columns)
     * @param ns           support rows
     * @param supportClass class index 0..k-1 of each support row (every class occurs)
     * @param k            number of classes
     * @param queries      row-major query features
     * @param nq           query rows
     */
    Result solve(float[] support, int ns, int[] supportClass, int k, float[] queries, int nq) {
        int d = base.dimension();
        int n = ns + nq;
        double[] x = new double[n * d];
        FeatureNormalisation.centreAndNormalise(support, 0, ns, d, base.mean(), x, 0);
        FeatureNormalisation.centreAndNormalise(queries, 0, nq, d, base.mean(), x, ns);
        Map<String, Double> diag = new LinkedHashMap<>();
        if (config.variant() == Variant.SOFTKMEANS) {
            double[] r = SoftKMeans.run(x, n, d, supportClass, k, config.tKm(), config.nKm());
            return new Result(r, n, k, diag);
        }
        double[] init;
        double[] vbData;
        int vbDim;
        if (base.kind() == Preprocessing.CODE) {
            TaskSpan span = TaskSpan.of(x, n, d, config.variant() == Variant.BAVARDAGE);
            diag.put("task_span_dim", (double) span.rank());
            init = SoftKMeans.run(span.coords(), n, span.rank(), supportClass, k, config.tKm(), config.nKm());
            if (config.variant() == Variant.BAVARDAGE) {
                Whitening.Result w = Whitening.restricted(span, base, config.sMax());
                diag.put("clamped_gain_fraction", w.clampedFraction(config.sMax()));
                vbData = w.data();
            } else {
                vbData = span.coords();
            }
            vbDim = span.rank();
        } else {
            init = SoftKMeans.run(x, n, d, supportClass, k, config.tKm(), config.nKm());
            if (config.variant() == Variant.BAVARDAGE) {
                Whitening.Result w = Whitening.global(x, n, d, sphering, globalGains);
                diag.put("clamped_gain_fraction", w.clampedFraction(config.sMax()));
                vbData = w.data();
            } else {
                vbData = x;
            }
            vbDim = d;
        }
        double[] r = init;
        IsotropicVbGmm vb = IsotropicVbGmm.of(config, k);
        for (int step = 0; step < config.nStep(); step++) {
            double[] z;
            int q;
            if (config.variant() == Variant.BAVARDAGE) {
                CentroidSubspace plda = CentroidSubspace.fit(vbData, n, vbDim, r, k, config.gamma());
                z = plda.project(vbData, n);
                q = plda.rank();
            } else {
                z = vbData;
                q = vbDim;
            }
            vb.mStep(z, n, q, r, ns, null);
            double[] next = new double[n * k];
            vb.eStep(z, n, next, supportClass);
            r = next;
            if (step == config.nStep() - 1) {
                diag.put("vb_dim", (double) q);
            }
        }
        return new Result(r, n, k, diag);
    }
}
