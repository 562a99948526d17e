package fsil.methods.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.concurrent.Parallel;
import fsil.core.math.Softmax;
import fsil.core.random.RandomStreams;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One incremental PPCA classifier: a sorted table of classes, each with its {@link ClassModel} (and, with
 * {@code scatter=keep}, its exact {@link ClassStatistics}).
 *
 * <p>{@code learn()} groups the rows by label; each class present is fitted on the executor, independently of every
 * other class: a new class from its chunk's moments; a known class from its old moments merged with the chunk's
 * (Chan et al.) -- exact with {@code scatter=keep}, from its rank-q_c model with {@code scatter=drop}. A class's
 * model therefore depends only on its own data (and, for the randomized solver, on a seed derived from the session
 * seed and the class id): never on the class order, the step sizes or the thread count.
 */
final class PpcaSession implements Session {
    private final PpcaConfig config;
    private final SessionContext context;
    private final int dim;
    private final long krylovSeed;
    private int[] classes = new int[0];
    private ClassModel[] models = new ClassModel[0];
    /** Exact moments per class (scatter=keep), else null entries. */
    private ClassStatistics[] statistics = new ClassStatistics[0];
    private final Map<String, Double> learnDiagnostics = new LinkedHashMap<>();
    private final Map<String, Double> predictDiagnostics = new LinkedHashMap<>();

    PpcaSession(PpcaConfig config, SessionContext context) {
        this.config = config;
        this.context = context;
        this.dim = context.dimension();
        this.krylovSeed = RandomStreams.derive(context.seed(), "ppca-krylov");
    }

    @Override
    public void learn(LabeledData data) {
        checkDimension(data.dimension(), "training features");
        data.requireFinite("training features");
        if (data.isEmpty()) {
            return;
        }
        float[] x = data.features().rawData();
        int[] rows = rowsByLabel(data.labels());
        int[] labels = data.labels();
        // class runs in the label-sorted row order
        int runs = 0;
        int[] start = new int[rows.length + 1];
        for (int i = 0; i < rows.length; i++) {
            if (i == 0 || labels[rows[i]] != labels[rows[i - 1]]) {
                start[runs++] = i;
            }
        }
        start[runs] = rows.length;
        int[] ids = new int[runs];
        for (int c = 0; c < runs; c++) {
            ids[c] = labels[rows[start[c]]];
        }
        ClassModel[] fitted = new ClassModel[runs];
        ClassStatistics[] kept = new ClassStatistics[runs];
        boolean[] merged = new boolean[runs];
        Parallel.forEach(context.executor(), runs, c -> {
            ClassStatistics chunk = ClassStatistics.ofRows(x, dim, rows, start[c], start[c + 1]);
            int at = Arrays.binarySearch(classes, ids[c]);
            ClassStatistics all = chunk;
            if (at >= 0) {
                merged[c] = true;
                all = config.keepScatter() ? statistics[at].copy() : lowRank(models[at]);
                all.merge(chunk);
            }
            fitted[c] = ClassModel.fit(all, config.q(), config.lambda(), config.ddof(), config.solver(),
                    RandomStreams.derive(krylovSeed, ids[c]));
            kept[c] = config.keepScatter() ? all : null;
        });
        commit(ids, fitted, kept);
        recordLearn(fitted, merged);
    }

    private ClassStatistics lowRank(ClassModel m) {
        return ClassStatistics.ofLowRank(dim, m.count, m.mean, m.basis, m.variances, config.ddof());
    }

    /** Row indices ordered by label, then by row (so a class's rows keep their order). */
    private static int[] rowsByLabel(int[] labels) {
        long[] keys = new long[labels.length];
        for (int i = 0; i < labels.length; i++) {
            keys[i] = ((long) labels[i] << 32) | i;
        }
        Arrays.sort(keys);
        int[] rows = new int[labels.length];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = (int) keys[i];
        }
        return rows;
    }

    /** Inserts or replaces the fitted classes, keeping the table sorted by class id. */
    private void commit(int[] ids, ClassModel[] fitted, ClassStatistics[] kept) {
        int added = 0;
        for (int id : ids) {
            if (Arrays.binarySearch(classes, id) < 0) {
                added++;
            }
        }
        int n = classes.length + added;
        int[] c = new int[n];
        ClassModel[] m = new ClassModel[n];
        ClassStatistics[] s = new ClassStatistics[n];
        int i = 0;
        int j = 0;
        for (int out = 0; out < n; out++) {
            boolean takeNew = j < ids.length && (i >= classes.length || ids[j] <= classes[i]);
            if (takeNew) {
                c[out] = ids[j];
                m[out] = fitted[j];
                s[out] = kept[j];
                if (i < classes.length && classes[i] == ids[j]) {
                    i++;
                }
                j++;
            } else {
                c[out] = classes[i];
                m[out] = models[i];
                s[out] = statistics[i];
                i++;
            }
        }
        classes = c;
        models = m;
        statistics = s;
    }

    private void recordLearn(ClassModel[] fitted, boolean[] merged) {
        int full = 0;
        int gram = 0;
        int krylov = 0;
        int fallbacks = 0;
        long krylovDim = 0;
        int merges = 0;
        for (int c = 0; c < fitted.length; c++) {
            TopEigen.Pairs e = fitted[c].eigen;
            switch (e.method()) {
                case FULL -> full++;
                case GRAM -> gram++;
                case KRYLOV -> krylov++;
                default -> {
                }
            }
            if (e.fallback()) {
                fallbacks++;
            }
            krylovDim += e.krylovDimension();
            merges += merged[c] ? 1 : 0;
        }
        learnDiagnostics.clear();
        learnDiagnostics.put("fit_classes", (double) fitted.length);
        learnDiagnostics.put("fit_full", (double) full);
        learnDiagnostics.put("fit_gram", (double) gram);
        learnDiagnostics.put("fit_randomized", (double) krylov);
        learnDiagnostics.put("randomized_fallbacks", (double) fallbacks);
        learnDiagnostics.put("krylov_dim_mean", krylov == 0 ? 0.0 : (double) krylovDim / krylov);
        learnDiagnostics.put(config.keepScatter() ? "exact_merges" : "approximate_merges", (double) merges);
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        checkDimension(queries.cols(), "query features");
        queries.requireFinite("query features");
        if (classes.length == 0) {
            throw new FsilException("ppca: predict() was called before any class was learned; call learn() with "
                    + "labelled training data first");
        }
        int n = queries.rows();
        if ((long) n * classes.length > Integer.MAX_VALUE - 8) {
            throw new FsilException("ppca: predicting " + n + " queries against " + classes.length + " classes needs "
                    + ((long) n * classes.length) + " probabilities, more than one array can hold; call predict() "
                    + "on batches of at most " + ((Integer.MAX_VALUE - 8) / classes.length) + " queries");
        }
        double[] logits = Scorer.scores(models, queries.rawData(), n, dim, config.logLik(), context.executor());
        double factor = -0.5 / config.temperature();
        for (int i = 0; i < logits.length; i++) {
            logits[i] *= factor;
        }
        predictDiagnostics.clear();
        predictDiagnostics.put("score_pairs", (double) n * classes.length);
        return Softmax.prediction(classes, logits);
    }

    /** Scores (smaller is better) of every query against every class, row-major n x K, columns in class-id order. */
    double[] scores(FeatureMatrix queries) {
        checkDimension(queries.cols(), "query features");
        queries.requireFinite("query features");
        return Scorer.scores(models, queries.rawData(), queries.rows(), dim, config.logLik(), context.executor());
    }

    private void checkDimension(int got, String what) {
        if (got != dim) {
            throw new InvalidDataException("ppca: " + what + " have dimension " + got + " but the session was created "
                    + "for dimension " + dim + "; every learn() and predict() of a session must use the same features");
        }
    }

    @Override
    public long memoryBytes() {
        long bytes = 16L * classes.length;
        for (int c = 0; c < classes.length; c++) {
            bytes += models[c].memoryBytes();
            if (statistics[c] != null) {
                bytes += statistics[c].memoryBytes();
            }
        }
        return bytes;
    }

    @Override
    public Map<String, Double> diagnostics() {
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("classes", (double) classes.length);
        double comps = 0;
        for (ClassModel m : models) {
            comps += m.rank;
        }
        out.put("components_mean", classes.length == 0 ? 0.0 : comps / classes.length);
        int singular = 0;
        for (ClassModel m : models) {
            singular += nearSingular(m.count, config.q(), dim) ? 1 : 0;
        }
        out.put("near_singular_classes", (double) singular);
        out.put("near_singular_fraction", classes.length == 0 ? 0.0 : (double) singular / classes.length);
        out.putAll(learnDiagnostics);
        out.putAll(predictDiagnostics);
        return out;
    }

    /**
     * Whether a class of {@code n} samples is near-singular for a model with {@code q} components in {@code d}
     * dimensions: its components q_c = min(q, n - 1, d) are at least half of its sample rank n - 1 and at least half
     * of the dimension d, i.e. 2 q_c &gt;= max(n - 1, d) with q_c &gt;= 1. The model then fits most of the directions
     * its few samples span (the trailing sample eigenvalues are noise) and those fill half the feature space or more,
     * leaving lambda as the only variance of the rest: the regime of the measured collapses (docs/ppca-results.md,
     * <i>Near-singular classes</i>). With n - 1 much larger than d the covariance is well estimated and no class is
     * flagged. The flag is structural; a validated q (--select) decides for a given data set.
     */
    static boolean nearSingular(long n, int q, int d) {
        long qc = Math.min(Math.min(q, n - 1), d);
        return qc >= 1 && 2 * qc >= Math.max(n - 1, d);
    }

    /** The sorted class ids (a copy). */
    int[] classes() {
        return classes.clone();
    }

    /** The model of a class id (tests). */
    ClassModel model(int classId) {
        int at = Arrays.binarySearch(classes, classId);
        if (at < 0) {
            throw new IllegalArgumentException("class " + classId + " was not learned");
        }
        return models[at];
    }
}
