package fsil.methods.bavardage;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One few-shot task: {@link #learn} collects the labelled support (several calls append), {@link #predict} solves
 * the task with the whole query batch and returns the VB soft assignments o_nk of the queries over the support
 * classes (sorted global ids; labels are mapped to 0..K-1 internally). When the context does not allow joint
 * queries, every query is solved alone with the support, so its prediction depends on it only.
 */
final class BavardageSession implements Session {
    private final BavardageSolver solver;
    private final boolean joint;
    private float[] support = new float[0];
    private int[] labels = new int[0];
    private final Map<String, Double> learnerDiagnostics;
    private Map<String, Double> diagnostics;

    /**
     * @param learnerDiagnostics numbers about the learner (the values the auto preset chose), reported with every
     *                           task's own numbers
     */
    BavardageSession(BavardageSolver solver, boolean joint, Map<String, Double> learnerDiagnostics) {
        this.solver = solver;
        this.joint = joint;
        this.learnerDiagnostics = learnerDiagnostics;
        this.diagnostics = learnerDiagnostics;
    }

    @Override
    public void learn(LabeledData data) {
        checkDimension(data.dimension(), "support");
        data.requireFinite("support features");
        if (data.isEmpty()) {
            throw new FsilException("bavardage: the support set is empty; a task needs at least one labelled sample "
                    + "per class");
        }
        int d = solver.base().dimension();
        float[] merged = Arrays.copyOf(support, support.length + data.size() * d);
        System.arraycopy(data.features().rawData(), 0, merged, support.length, data.size() * d);
        int[] mergedLabels = Arrays.copyOf(labels, labels.length + data.size());
        System.arraycopy(data.labels(), 0, mergedLabels, labels.length, data.size());
        support = merged;
        labels = mergedLabels;
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        checkDimension(queries.cols(), "query");
        queries.requireFinite("query features");
        if (labels.length == 0) {
            throw new FsilException("bavardage: predict() called before learn(); give the support set first");
        }
        int[] classes = Arrays.stream(labels).distinct().sorted().toArray();
        int k = classes.length;
        int ns = labels.length;
        int[] supportClass = classIndices(labels, classes);
        int nq = queries.rows();
        int d = solver.base().dimension();
        if (nq == 0) {
            return Prediction.of(classes, new double[0]);
        }
        if (joint) {
            BavardageSolver.Result r = solver.solve(support, ns, supportClass, k, queries.rawData(), nq);
            diagnostics = merged(r.diagnostics());
            return prediction(classes, r, ns, nq);
        }
        double[] out = new double[nq * k];
        float[] q = queries.rawData();
        for (int i = 0; i < nq; i++) {
            float[] one = Arrays.copyOfRange(q, i * d, (i + 1) * d);
            BavardageSolver.Result r = solver.solve(support, ns, supportClass, k, one, 1);
            System.arraycopy(r.responsibilities(), ns * k, out, i * k, k);
            diagnostics = merged(r.diagnostics());
        }
        normaliseRows(out, nq, k);
        return Prediction.of(classes, out);
    }

    private Map<String, Double> merged(Map<String, Double> task) {
        if (learnerDiagnostics.isEmpty()) {
            return task;
        }
        Map<String, Double> m = new LinkedHashMap<>(task);
        m.putAll(learnerDiagnostics);
        return m;
    }

    /** Index of every label in the sorted {@code classes}. */
    static int[] classIndices(int[] labels, int[] classes) {
        int[] out = new int[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = Arrays.binarySearch(classes, labels[i]);
        }
        return out;
    }

    /** The query rows of a joint solution as a prediction over {@code classes} (rows renormalised). */
    static Prediction prediction(int[] classes, BavardageSolver.Result r, int ns, int nq) {
        int k = classes.length;
        double[] out = new double[nq * k];
        System.arraycopy(r.responsibilities(), ns * k, out, 0, nq * k);
        normaliseRows(out, nq, k);
        return Prediction.of(classes, out);
    }

    /** Rows of the code-faithful epsilon softmax sum to slightly more than 1; the output must sum to 1. */
    private static void normaliseRows(double[] p, int n, int k) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int c = 0; c < k; c++) {
                s += p[i * k + c];
            }
            for (int c = 0; c < k; c++) {
                p[i * k + c] /= s;
            }
        }
    }

    private void checkDimension(int got, String what) {
        int d = solver.base().dimension();
        if (got != d) {
            throw new InvalidDataException(what + " features have dimension " + got + " but the base classes "
                    + "BAVARDAGE was prepared with have dimension " + d + "; use features from the same backbone");
        }
    }

    @Override
    public long memoryBytes() {
        return 4L * support.length + 4L * labels.length;
    }

    @Override
    public Map<String, Double> diagnostics() {
        return diagnostics;
    }
}
