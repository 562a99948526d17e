package fsil.methods.gptree;

import fsil.api.EmbeddingObjective;
import fsil.api.FsilException;
import fsil.core.cluster.KMeans;
import fsil.core.gp.Kernel;
import fsil.core.nn.Adam;
import fsil.core.nn.Optimizer;
import fsil.core.nn.Parameters;
import fsil.core.nn.Sgd;
import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * GP-Tree's base-session objective as an {@link EmbeddingObjective}: a backbone (e.g. {@code conv4[objective=gptree]})
 * trains its network with the summed node losses sum_v -ELBO_v / n_v of a GP-Tree fitted to each training episode,
 * while the kernel's log hyperparameters (shared by all nodes) are trained here by the method's optimiser.
 *
 * <p>Per episode (all rows are training data; the sampling has no queries): the class tree is built from the
 * episode's class means as the method builds it ({@link TreeBuilder}); {@code inducing} inducing inputs per class are
 * the centres of a k-means of the class's embeddings, recomputed as the exact means of their clusters (a class with
 * at most {@code inducing} rows repeats its rows, as {@link ViTrainer#initialInducing}); every internal node gets a VI
 * node ({@link ViNode}) over the rows of its classes, whose variational parameters (c, eta, P) are fitted by
 * coordinate ascent (the natural-gradient step with rho = 1 on the whole episode) until c moves by less than
 * {@code train_vi_tol} or {@code train_vi_steps} passes. The loss is the bound at the fitted parameters.
 *
 * <p>The gradient dL/dz is the closed-form dL/dK of {@link ViNode#objective} pulled back through the kernel to the
 * node's rows and to the inducing inputs, and from the inducing inputs to the rows they average, with the
 * variational parameters held fixed (Algorithm 1). With the correct bound ({@code elbo=wenzel}) the fitted
 * parameters maximise it, so (envelope theorem) this is the total derivative of the loss as a function of z: the
 * tree and the k-means assignments are piecewise constant in z. With {@code elbo=code} the updates do not maximise
 * the authors' objective and the gradient is the partial one at the fitted parameters, as in their training.
 *
 * <p>Validation episodes are scored by nearest class mean ({@link Training#predict} returns null): see the module
 * README, decisions 13-15.
 */
final class GpTreeObjective implements EmbeddingObjective {

    /** The objective's own settings (besides the method's tree, kernel and VI parameters). */
    record Settings(int ways, int shots, int viSteps, double viTol) {
    }

    private final GpTreeConfig cfg;
    private final Settings settings;

    GpTreeObjective(GpTreeConfig cfg, Settings settings) {
        this.cfg = cfg;
        this.settings = settings;
    }

    @Override
    public String describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tree", lower(cfg.tree()));
        m.put("kmeans_restarts", Integer.toString(cfg.kmeansRestarts()));
        m.put("kernel", lower(cfg.kernel()));
        m.put("outputscale", Double.toString(cfg.outputscale()));
        m.put("lengthscale", Double.toString(cfg.lengthscale()));
        m.put("vi_jitter", Double.toString(cfg.viJitter()));
        m.put("inducing", Integer.toString(cfg.inducingPerClass()));
        m.put("elbo", lower(cfg.elbo()));
        m.put("learn_hyper", Boolean.toString(cfg.learnHyper()));
        m.put("optimizer", lower(cfg.optimizer()));
        m.put("learning_rate", Double.toString(cfg.learningRate()));
        m.put("train_ways", Integer.toString(settings.ways()));
        m.put("train_shots", Integer.toString(settings.shots()));
        m.put("train_vi_steps", Integer.toString(settings.viSteps()));
        m.put("train_vi_tol", Double.toString(settings.viTol()));
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return sb.toString();
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public Sampling sampling() {
        return new Sampling(settings.ways(), settings.shots(), 0);
    }

    @Override
    public Training start(int dimension) {
        return new State();
    }

    /** A kernel of the configured family at the given log hyperparameters. */
    private Kernel kernel(double[] logHyper) {
        Kernel k = cfg.newViKernel();
        k.setHyperparameters(logHyper);
        return k;
    }

    /** The loss, dL/dz and dL/dlog-hyperparameters of one episode. */
    record Value(double loss, double[] dz, double[] dHyper) {
    }

    /**
     * The GP-Tree of one episode with its variational parameters fitted; {@link #evaluate} gives the bound at other
     * embeddings with the same tree, inducing assignments and variational parameters (for tests of the partial
     * gradient).
     */
    final class EpisodeFit {
        final TreeNode tree;
        final int n;
        final int d;
        final int[] labels;
        final List<ViNode> nodes = new ArrayList<>();
        /** Per node: the episode rows of its classes, ascending. */
        final List<int[]> nodeRows = new ArrayList<>();
        /** Per inducing row (class-major, {@code inducing} per class): the episode rows it is the mean of. */
        final int[][] inducingMembers;
        /** Coordinate-ascent passes of the slowest node, and whether every node met the tolerance. */
        int passes;
        boolean converged = true;

        EpisodeFit(Episode e, double[] logHyper) {
            n = e.rows();
            d = e.dimension();
            labels = e.labels();
            int ways = e.ways();
            int[] classes = new int[ways];
            int[] count = new int[ways];
            for (int y : labels) {
                if (y < 0 || y >= ways) {
                    throw new IllegalArgumentException("episode label " + y + " outside 0.." + (ways - 1));
                }
                count[y]++;
            }
            for (int k = 0; k < ways; k++) {
                if (count[k] == 0) {
                    throw new IllegalArgumentException("episode class " + k + " has no rows");
                }
                classes[k] = k;
            }
            double[] z = e.z();
            tree = new TreeBuilder(cfg.tree(), cfg.kmeansRestarts(), RandomStreams.derive(e.seed(), "tree"))
                    .build(classes, TreeBuilder.classMeans(z, labels, classes, d), d);
            inducingMembers = inducingMembers(z, RandomStreams.derive(e.seed(), "inducing"));
            DMatrixRMaj xbar = inducing(z);
            int p = cfg.inducingPerClass();
            for (TreeNode t : tree.internalNodes()) {
                int[] rows = new int[t.classes.length * p];
                for (int k = 0; k < t.classes.length; k++) {
                    for (int r = 0; r < p; r++) {
                        rows[k * p + r] = t.classes[k] * p + r;
                    }
                }
                int[] members = ViTrainer.membersOf(t, labels);
                ViNode v = new ViNode(t, rows, kernel(logHyper), cfg.viJitter(), members.length);
                t.model = v;
                nodes.add(v);
                nodeRows.add(members);
                fit(v, forward(v, members, z, xbar));
            }
        }

        /** Coordinate ascent on (c, eta, P): the whole node is the batch, so rho = 1 is the exact maximisation. */
        private void fit(ViNode v, ViNode.Forward f) {
            double[] prev = new double[v.nNode];
            for (int pass = 1; pass <= settings.viSteps(); pass++) {
                v.update(f, 1.0);
                double move = 0;
                for (int i = 0; i < v.nNode; i++) {
                    double c = v.localC(i);
                    move = Math.max(move, Math.abs(c - prev[i]) / Math.max(1.0, c));
                    prev[i] = c;
                }
                passes = Math.max(passes, pass);
                if (pass > 1 && move <= settings.viTol()) {
                    return;
                }
            }
            converged = false;
        }

        /**
         * Rows of each class to average into its inducing inputs: k-means clusters of the class's rows when it has
         * more than {@code inducing}, otherwise its rows repeated cyclically.
         */
        private int[][] inducingMembers(double[] z, long seed) {
            int p = cfg.inducingPerClass();
            int ways = tree.classes.length;
            int[][] out = new int[ways * p][];
            for (int k = 0; k < ways; k++) {
                int cls = k;
                int[] rows = java.util.stream.IntStream.range(0, n).filter(i -> labels[i] == cls).toArray();
                int[] cluster = null;
                if (rows.length > p) {
                    double[] pts = new double[rows.length * d];
                    for (int i = 0; i < rows.length; i++) {
                        System.arraycopy(z, rows[i] * d, pts, i * d, d);
                    }
                    // the authors' inducing initialisation (5 restarts, 200 iterations), as ViTrainer's
                    KMeans.Result r = new KMeans(p, 5, 200, 1e-4).fit(pts, rows.length, d,
                            RandomStreams.derive(seed, k));
                    cluster = r.labels();
                }
                for (int j = 0; j < p; j++) {
                    List<Integer> m = new ArrayList<>();
                    if (cluster != null) {
                        for (int i = 0; i < rows.length; i++) {
                            if (cluster[i] == j) {
                                m.add(rows[i]);
                            }
                        }
                    }
                    if (m.isEmpty()) {
                        m.add(rows[j % rows.length]);
                    }
                    out[k * p + j] = m.stream().mapToInt(Integer::intValue).toArray();
                }
            }
            return out;
        }

        /** The inducing inputs of embeddings z: each row the mean of its members. */
        DMatrixRMaj inducing(double[] z) {
            DMatrixRMaj xbar = new DMatrixRMaj(inducingMembers.length, d);
            for (int r = 0; r < inducingMembers.length; r++) {
                int[] m = inducingMembers[r];
                for (int i : m) {
                    for (int j = 0; j < d; j++) {
                        xbar.data[r * d + j] += z[i * d + j];
                    }
                }
                for (int j = 0; j < d; j++) {
                    xbar.data[r * d + j] /= m.length;
                }
            }
            return xbar;
        }

        private ViNode.Forward forward(ViNode v, int[] members, double[] z, DMatrixRMaj xbar) {
            int nv = members.length;
            DMatrixRMaj xb = new DMatrixRMaj(nv, d);
            boolean[] right = new boolean[nv];
            int[] local = new int[nv];
            for (int i = 0; i < nv; i++) {
                System.arraycopy(z, members[i] * d, xb.data, i * d, d);
                right[i] = v.node.goesRight(labels[members[i]]);
                local[i] = i;
            }
            return v.new Forward(xbar, xb, right, local);
        }

        /**
         * sum_v -ELBO_v / n_v at embeddings z with this fit's tree, inducing assignments and variational parameters,
         * and (with {@code gradient}) its gradient in z and in the shared log hyperparameters.
         */
        Value evaluate(double[] z, boolean gradient) {
            DMatrixRMaj xbar = inducing(z);
            double loss = 0;
            double[] dz = gradient ? new double[n * d] : null;
            double[] dHyper = null;
            double[] dXbar = gradient ? new double[xbar.data.length] : null;
            for (int v = 0; v < nodes.size(); v++) {
                ViNode node = nodes.get(v);
                int[] members = nodeRows.get(v);
                ViNode.Gradient g = node.objective(forward(node, members, z, xbar), cfg.elbo(), gradient);
                loss += g.loss();
                if (!gradient) {
                    continue;
                }
                for (int i = 0; i < members.length; i++) {
                    for (int j = 0; j < d; j++) {
                        dz[members[i] * d + j] += g.dX().data[i * d + j];
                    }
                }
                int[] rows = node.inducingRows;
                for (int r = 0; r < rows.length; r++) {
                    for (int j = 0; j < d; j++) {
                        dXbar[rows[r] * d + j] += g.dZ().data[r * d + j];
                    }
                }
                if (dHyper == null) {
                    dHyper = g.dHyper().clone();
                } else {
                    for (int h = 0; h < dHyper.length; h++) {
                        dHyper[h] += g.dHyper()[h];
                    }
                }
            }
            if (gradient) {
                // an inducing input is the mean of its members
                for (int r = 0; r < inducingMembers.length; r++) {
                    int[] m = inducingMembers[r];
                    for (int i : m) {
                        for (int j = 0; j < d; j++) {
                            dz[i * d + j] += dXbar[r * d + j] / m.length;
                        }
                    }
                }
            }
            return new Value(loss, dz, dHyper);
        }
    }

    /** The shared log hyperparameters, their optimiser and the gradient of the last episode. */
    private final class State implements Training {
        private final String[] names = cfg.newViKernel().hyperparameterNames();
        private final double[] logHyper = cfg.newViKernel().hyperparameters();
        private final Parameters params = new Parameters();
        private final double[] grad = params.add(logHyper);
        private final Optimizer opt = cfg.optimizer() == GpTreeMethod.Optimizer.SGD
                ? new Sgd(cfg.learningRate(), 0.9) : new Adam(cfg.learningRate(), 0.0);
        private double[] pending;

        @Override
        public double loss(Episode e, double[] gradient) {
            pending = null;
            Value v;
            try {
                v = new EpisodeFit(e, logHyper).evaluate(e.z(), true);
            } catch (FsilException numerical) {
                return Double.NaN; // a Cholesky that failed, or a row embedded at 0 (no direction for the kernel)
            }
            if (!Double.isFinite(v.loss()) || !allFinite(v.dz()) || !allFinite(v.dHyper())) {
                return Double.NaN;
            }
            System.arraycopy(v.dz(), 0, gradient, 0, v.dz().length);
            pending = v.dHyper();
            return v.loss();
        }

        @Override
        public void update() {
            if (pending == null) {
                throw new IllegalStateException("update() without a scored episode");
            }
            if (cfg.learnHyper()) {
                params.zeroGradients();
                System.arraycopy(pending, 0, grad, 0, grad.length);
                opt.step(params);
            }
            pending = null;
        }

        @Override
        public Map<String, Double> state() {
            Map<String, Double> m = new LinkedHashMap<>();
            for (int h = 0; h < names.length; h++) {
                m.put(names[h], logHyper[h]);
                m.put(names[h].replaceFirst("^log_", ""), Math.exp(logHyper[h]));
            }
            return m;
        }

        @Override
        public void restore(Map<String, Double> state) {
            for (int h = 0; h < names.length; h++) {
                logHyper[h] = state.get(names[h]);
            }
        }
    }

    private static boolean allFinite(double[] a) {
        for (double v : a) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }
}
