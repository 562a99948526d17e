package fsil.methods.bavardage;

import fsil.core.cluster.SoftKMeans;
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
 *
 * <p>The work is split in two stages so that the {@code auto} preset's tuning ({@link AutoTuning}) can share the
 * expensive part between configurations:
 * {@link #prepare} does steps 1-3 and the s_max-independent part of the whitening (every decomposition), which
 * depend on the variant, the preprocessing and T_km only; {@link #finish} clamps the gains at s_max and runs the
 * loop with T_vb and the VB settings. {@link #solve} is the two in sequence.
 */
final class BavardageSolver {
    private final BavardageConfig config;
    private final BaseStatistics base;

    BavardageSolver(BavardageConfig config, BaseStatistics base) {
        if (config.preprocessing() != base.kind()) {
            throw new IllegalArgumentException("configuration asks for " + config.preprocessing().id()
                    + " preprocessing but the base statistics were computed for " + base.kind().id());
        }
        this.config = config;
        this.base = base;
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
     * A task after {@link #prepare}.
     *
     * @param ns           support rows (the first rows)
     * @param rows         all rows N
     * @param supportClass class index of each support row
     * @param k            number of classes
     * @param init         soft k-means responsibilities (N x k)
     * @param vbInput      VB input without whitening (VB_NO_PLDA: span coordinates or the normalised rows)
     * @param vbDim        its dimension
     * @param rotation     the whitening before the clamp (BAVARDAGE only)
     * @param diagnostics  numbers about the preparation
     * @param prepKey      the configuration values this preparation depends on
     */
    record Prepared(int ns, int rows, int[] supportClass, int k, double[] init, double[] vbInput, int vbDim,
                    Whitening.Rotation rotation, Map<String, Double> diagnostics, PrepKey prepKey) {
    }

    /** The configuration values {@link #prepare} depends on; configurations with equal keys share preparations. */
    record PrepKey(Variant variant, Preprocessing preprocessing, double tKm, int nKm, SpanBasis span) {
        static PrepKey of(BavardageConfig c) {
            return new PrepKey(c.variant(), c.preprocessing(), c.tKm(), c.nKm(), c.span());
        }
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
        return finish(prepare(support, ns, supportClass, k, queries, nq), config);
    }

    /** Steps 1-3 and the whitening up to the clamp (arguments as {@link #solve}). */
    Prepared prepare(float[] support, int ns, int[] supportClass, int k, float[] queries, int nq) {
        int d = base.dimension();
        int n = ns + nq;
        double[] x = new double[n * d];
        FeatureNormalisation.centreAndNormalise(support, 0, ns, d, base.mean(), x, 0);
        FeatureNormalisation.centreAndNormalise(queries, 0, nq, d, base.mean(), x, ns);
        Map<String, Double> diag = new LinkedHashMap<>();
        PrepKey key = PrepKey.of(config);
        if (config.variant() == Variant.SOFTKMEANS) {
            double[] r = SoftKMeans.run(x, n, d, supportClass, k, config.tKm(), config.nKm());
            return new Prepared(ns, n, supportClass, k, r, null, 0, null, diag, key);
        }
        boolean whiten = config.variant() == Variant.BAVARDAGE;
        if (base.kind() == Preprocessing.CODE) {
            TaskSpan span = config.span() == SpanBasis.AUTHORS ? TaskSpan.authors(x, n, d, whiten)
                    : TaskSpan.of(x, n, d, whiten);
            diag.put("task_span_dim", (double) span.rank());
            double[] init = SoftKMeans.run(span.coords(), n, span.rank(), supportClass, k, config.tKm(),
                    config.nKm());
            Whitening.Rotation rot = whiten ? Whitening.restricted(span, base) : null;
            return new Prepared(ns, n, supportClass, k, init, whiten ? null : span.coords(), span.rank(), rot, diag,
                    key);
        }
        double[] init = SoftKMeans.run(x, n, d, supportClass, k, config.tKm(), config.nKm());
        Whitening.Rotation rot = whiten ? Whitening.global(x, n, d, base) : null;
        return new Prepared(ns, n, supportClass, k, init, whiten ? null : x, d, rot, diag, key);
    }

    /**
     * Step V's clamp and step 4 for configuration {@code c}, which must agree with the preparing configuration on
     * everything {@link #prepare} used ({@link PrepKey}).
     */
    static Result finish(Prepared p, BavardageConfig c) {
        if (!p.prepKey().equals(PrepKey.of(c))) {
            throw new IllegalArgumentException("task prepared for " + p.prepKey() + ", finished with " + PrepKey.of(c));
        }
        int n = p.rows();
        int k = p.k();
        Map<String, Double> diag = new LinkedHashMap<>(p.diagnostics());
        if (c.variant() == Variant.SOFTKMEANS) {
            return new Result(p.init(), n, k, diag);
        }
        double[] vbData;
        int vbDim;
        if (p.rotation() != null) {
            Whitening.Result w = p.rotation().clamp(c.sMax());
            diag.put("clamped_gain_fraction", w.clampedFraction(c.sMax()));
            vbData = w.data();
            vbDim = w.dim();
        } else {
            vbData = p.vbInput();
            vbDim = p.vbDim();
        }
        double[] r = p.init();
        IsotropicVbGmm vb = IsotropicVbGmm.of(c, k);
        double[] vbDataT = null;
        if (c.variant() == Variant.BAVARDAGE) {
            vbDataT = new double[vbDim * n];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < vbDim; t++) {
                    vbDataT[t * n + i] = vbData[i * vbDim + t];
                }
            }
        }
        for (int step = 0; step < c.nStep(); step++) {
            double[] z;
            int q;
            if (c.variant() == Variant.BAVARDAGE) {
                CentroidSubspace plda = CentroidSubspace.fit(vbData, n, vbDim, r, k, c.gamma());
                z = plda.projectTransposed(vbDataT, n);
                q = plda.rank();
            } else {
                z = vbData;
                q = vbDim;
            }
            vb.mStep(z, n, q, r, p.ns(), null);
            double[] next = new double[n * k];
            vb.eStep(z, n, next, p.supportClass());
            r = next;
            if (step == c.nStep() - 1) {
                diag.put("vb_dim", (double) q);
            }
        }
        return new Result(r, n, k, diag);
    }
}
