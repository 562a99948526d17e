package fsil.methods.lsgp;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.gp.CosineKernel;
import org.ejml.data.DMatrixRMaj;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One few-shot task: {@link #learn} embeds the support set with the deep kernel and fits the posterior of the C
 * latent GPs (mean-field or Gibbs); {@link #predict} returns Monte Carlo class probabilities per query, using only
 * the support posterior and the query itself (inductive). Classes are the sorted distinct global ids of the labelled
 * data. A second {@code learn} adds its data to the conditioning set and refits.
 */
final class LsgpSession implements Session {
    private final LsgpConfig cfg;
    private final LsgpModel model;
    private final SessionContext ctx;
    private final CosineKernel kernel;
    private final List<LabeledData> learned = new ArrayList<>();
    private final Map<String, Double> diagnostics = new LinkedHashMap<>();
    private int dimension = -1;
    private DMatrixRMaj support;
    private int[] classes;
    private int[] labels;
    private TaskPosterior posterior;
    private Predictor predictor;

    LsgpSession(LsgpConfig cfg, LsgpModel model, SessionContext ctx) {
        this.cfg = cfg;
        this.model = model;
        this.ctx = ctx;
        this.kernel = model.kernel().kernel();
    }

    @Override
    public void learn(LabeledData data) {
        data.requireFinite("support features");
        if (data.isEmpty()) {
            throw new InvalidDataException("lsgp: the labelled data is empty; a few-shot task needs at least one "
                    + "support sample");
        }
        checkDimension(data.dimension(), "support features");
        learned.add(data);
        fit();
    }

    private void checkDimension(int d, String what) {
        LsgpKernel dk = model.kernel();
        if (dk.hasMap() && dk.map().inputDim() != d) {
            throw new InvalidDataException("lsgp: " + what + " have dimension " + d + " but the meta-trained feature "
                    + "map expects " + dk.map().inputDim() + " (the base classes' dimension); use the same backbone "
                    + "for the background and the tasks");
        }
        if (dimension >= 0 && d != dimension) {
            throw new InvalidDataException("lsgp: " + what + " have dimension " + d + " but the support set has "
                    + dimension);
        }
    }

    private void fit() {
        LabeledData all = LabeledData.concat(learned);
        dimension = all.dimension();
        classes = all.classes();
        int[] y = new int[all.size()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Arrays.binarySearch(classes, all.labels()[i]);
        }
        labels = y;
        support = model.kernel().embed(all.features());
        diagnostics.clear();
        diagnostics.putAll(model.diagnostics());
        if (classes.length < 2) {
            posterior = null;
            return;
        }
        long t0 = System.nanoTime();
        posterior = TaskInference.fit(cfg, kernel.matrix(support), y, classes.length, ctx.seed(), diagnostics);
        diagnostics.put("inference_s", (System.nanoTime() - t0) * 1e-9);
        predictor = new Predictor(classes.length, cfg.tau(), cfg.mcSamples(), ctx.seed(), cfg.quadrature());
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        queries.requireFinite("query features");
        if (classes == null) {
            throw new FsilException("lsgp: predict() was called before learn(); give the session its support set first");
        }
        checkDimension(queries.cols(), "query features");
        int t = queries.rows();
        int c = classes.length;
        if (t == 0) {
            return Prediction.of(classes, new double[0]);
        }
        if (c == 1) {
            double[] ones = new double[t];
            Arrays.fill(ones, 1.0);
            return Prediction.of(classes, ones);
        }
        DMatrixRMaj zq = model.kernel().embed(queries);
        double[] p = TaskInference.predict(cfg, posterior, kernel.matrix(support, zq), kernel.diag(zq), predictor,
                model.temperature());
        return Prediction.of(classes, p);
    }

    /** The support's kernel matrix (for the benchmark's fidelity checks; null before learn). */
    DMatrixRMaj supportKernel() {
        return support == null ? null : kernel.matrix(support);
    }

    /** The support labels as class indices 0..C-1. */
    int[] supportLabels() {
        return labels.clone();
    }

    /** K_* between the support and the queries, and k_** of the queries. */
    DMatrixRMaj queryKernel(FeatureMatrix queries) {
        return kernel.matrix(support, model.kernel().embed(queries));
    }

    double[] queryDiagonal(FeatureMatrix queries) {
        return kernel.diag(model.kernel().embed(queries));
    }

    LsgpConfig config() {
        return cfg;
    }

    @Override
    public long memoryBytes() {
        long bytes = 8L * model.kernel().parameterCount();
        if (support != null) {
            bytes += 8L * support.data.length;
        }
        if (posterior != null) {
            bytes += posterior.memoryBytes();
        }
        return bytes;
    }

    @Override
    public Map<String, Double> diagnostics() {
        return Map.copyOf(diagnostics);
    }
}
