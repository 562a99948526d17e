package fsil.methods.bavardage;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;

import java.util.Arrays;
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
    private Map<String, Double> diagnostics = Map.of();

    BavardageSession(BavardageSolver solver, boolean joint) {
        this.solver = solver;
        this.joint = joint;
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
        int[] supportClass = new int[ns];
        for (int i = 0; i < ns; i++) {
            supportClass[i] = Arrays.binarySearch(classes, labels[i]);
        }
        int nq = queries.rows();
        int d = solver.base().dimension();
        double[] out = new double[nq * k];
        if (nq == 0) {
            return Prediction.of(classes, out);
        }
        if (joint) {
            BavardageSolver.Result r = solver.solve(support, ns, supportClass, k, queries.rawData(), nq);
            System.arraycopy(r.responsibilities(), ns * k, out, 0, nq * k);
            diagnostics = r.diagnostics();
        } else {
            float[] q = queries.rawData();
            for (int i = 0; i < nq; i++) {
                float[] one = Arrays.copyOfRange(q, i * d, (i + 1) * d);
                BavardageSolver.Result r = solver.solve(support, ns, supportClass, k, one, 1);
                System.arraycopy(r.responsibilities(), ns * k, out, i * k, k);
                diagnostics = r.diagnostics();
            }
        }
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
