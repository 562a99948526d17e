package fsil.methods.gptree;

import fsil.core.cluster.KMeans;
import fsil.core.concurrent.Parallel;
import fsil.core.nn.Adam;
import fsil.core.nn.Dense;
import fsil.core.nn.FeatureMap;
import fsil.core.nn.Mlp;
import fsil.core.nn.Optimizer;
import fsil.core.nn.Parameters;
import fsil.core.nn.Sgd;
import fsil.core.nn.SoftmaxCrossEntropy;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * GP-Tree learning with VI nodes (paper Algorithm 1): optional cross-entropy pre-training of the deep kernel's
 * feature map g_theta, the class tree built from the embeddings, inducing inputs initialised per class by k-means,
 * then epochs of minibatches where every internal node reached by the batch updates its local c and takes a
 * natural-gradient step on (eta, H), and one optimiser step moves theta, the inducing inputs and every node's
 * kernel hyperparameters along the gradient of the summed node losses -ELBO_v / n_v.
 */
final class ViTrainer {
    private final GpTreeConfig cfg;
    private final long seed;
    private final Executor executor;

    /** Mean total loss of each VI epoch (diagnostics and tests). */
    final List<Double> epochLoss = new ArrayList<>();

    ViTrainer(GpTreeConfig cfg, long seed, Executor executor) {
        this.cfg = cfg;
        this.seed = seed;
        this.executor = executor;
    }

    /** The trained base model. */
    record Result(FeatureMap map, TreeNode tree, DMatrixRMaj xbar, int[] classes, List<ViNode> nodes,
                  Objective objective) {
    }

    /**
     * @param x       N x d backbone features, row-major
     * @param labels  global class ids
     * @param classes sorted distinct ids of {@code labels}
     */
    Result train(float[] x, int n, int d, int[] labels, int[] classes) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = Arrays.binarySearch(classes, labels[i]);
        }
        FeatureMap map = FeatureMap.identity(d);
        if (cfg.deepKernel()) {
            Mlp mlp = new Mlp(new int[]{d, cfg.dklHidden(), cfg.dklOut()}, false, RandomStreams.derive(seed, "mlp"));
            pretrain(mlp, x, n, y, classes.length);
            map = FeatureMap.of(mlp);
        }
        DMatrixRMaj emb = map.embed(x, n);
        int e = emb.numCols;
        TreeNode tree = new TreeBuilder(cfg.tree(), cfg.kmeansRestarts(), RandomStreams.derive(seed, "tree"))
                .build(classes, TreeBuilder.classMeans(emb.data, labels, classes, e), e);
        DMatrixRMaj xbar = initialInducing(emb, y, classes.length, cfg.inducingPerClass(),
                RandomStreams.derive(seed, "inducing"));
        List<ViNode> nodes = new ArrayList<>();
        List<int[]> nodeRows = new ArrayList<>();
        int p = cfg.inducingPerClass();
        for (TreeNode t : tree.internalNodes()) {
            int[] rows = new int[t.classes.length * p];
            for (int k = 0; k < t.classes.length; k++) {
                int ci = Arrays.binarySearch(classes, t.classes[k]);
                for (int r = 0; r < p; r++) {
                    rows[k * p + r] = ci * p + r;
                }
            }
            int[] members = membersOf(t, labels);
            nodeRows.add(members);
            ViNode v = new ViNode(t, rows, cfg.newViKernel(), cfg.viJitter(), members.length);
            nodes.add(v);
            t.model = v;
        }
        Objective objective = new Objective(map, x, d, labels, xbar, nodes, nodeRows);
        optimise(objective, n);
        for (ViNode v : nodes) {
            v.setInducing(xbar);
        }
        return new Result(map, tree, xbar, classes, nodes, objective);
    }

    /** Sorted training rows whose class is below node t. */
    static int[] membersOf(TreeNode t, int[] labels) {
        int cnt = 0;
        for (int label : labels) {
            cnt += Arrays.binarySearch(t.classes, label) >= 0 ? 1 : 0;
        }
        int[] out = new int[cnt];
        int k = 0;
        for (int i = 0; i < labels.length; i++) {
            if (Arrays.binarySearch(t.classes, labels[i]) >= 0) {
                out[k++] = i;
            }
        }
        return out;
    }

    private Optimizer newOptimizer() {
        return cfg.optimizer() == GpTreeMethod.Optimizer.SGD ? new Sgd(cfg.learningRate(), 0.9) : new Adam(cfg.learningRate(), 0.0);
    }

    /** Cross-entropy pre-training of g_theta with a linear softmax head (Algorithm 1, first loop). */
    private void pretrain(Mlp mlp, float[] x, int n, int[] y, int numClasses) {
        if (cfg.pretrainEpochs() == 0) {
            return;
        }
        Parameters params = new Parameters().addAll(mlp.parameters());
        Dense head = new Dense(mlp.outputSize(), numClasses, RandomStreams.child(seed, 17), params);
        Optimizer opt = newOptimizer();
        int bs = Math.min(cfg.batchSize(), n);
        Mlp.Batch b = mlp.newBatch(bs);
        DMatrixRMaj logits = new DMatrixRMaj(bs, numClasses);
        DMatrixRMaj dLogits = new DMatrixRMaj(bs, numClasses);
        DMatrixRMaj feat = new DMatrixRMaj(bs, mlp.outputSize());
        DMatrixRMaj dFeat = new DMatrixRMaj(bs, mlp.outputSize());
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "pretrain"));
        for (int epoch = 0; epoch < cfg.pretrainEpochs(); epoch++) {
            int[] perm = RandomStreams.permutation(n, rng);
            for (int from = 0; from < n; from += bs) {
                int to = Math.min(n, from + bs);
                int s = to - from;
                b.setInput(x, perm, from, to);
                mlp.forward(b);
                feat.reshape(s, mlp.outputSize());
                System.arraycopy(b.output(), 0, feat.data, 0, s * mlp.outputSize());
                logits.reshape(s, numClasses);
                head.forward(feat, logits);
                dLogits.reshape(s, numClasses);
                int[] yb = new int[s];
                for (int i = 0; i < s; i++) {
                    yb[i] = y[perm[from + i]];
                }
                SoftmaxCrossEntropy.lossAndGradient(logits.data, s, numClasses, yb, null, dLogits.data);
                dFeat.reshape(s, mlp.outputSize());
                head.backward(feat, dLogits, dFeat);
                System.arraycopy(dFeat.data, 0, b.outputGradient(), 0, s * mlp.outputSize());
                mlp.backward(b, false);
                opt.step(params);
                params.zeroGradients();
            }
        }
    }

    /**
     * Inducing inputs, {@code perClass} rows per class (class-major): k-means centres of the class's embeddings
     * (5 restarts, 200 iterations, as the authors' init), or the class's rows repeated cyclically when it has at
     * most {@code perClass} of them (the authors' {@code _init_Xbar} in {@code GP_Tree/Learner.py}).
     */
    static DMatrixRMaj initialInducing(DMatrixRMaj emb, int[] y, int numClasses, int perClass, long seed) {
        int e = emb.numCols;
        DMatrixRMaj xbar = new DMatrixRMaj(numClasses * perClass, e);
        for (int k = 0; k < numClasses; k++) {
            int cnt = 0;
            for (int v : y) {
                cnt += v == k ? 1 : 0;
            }
            double[] pts = new double[cnt * e];
            int r = 0;
            for (int i = 0; i < y.length; i++) {
                if (y[i] == k) {
                    System.arraycopy(emb.data, i * e, pts, r * e, e);
                    r++;
                }
            }
            double[] centres = representatives(pts, cnt, e, perClass, RandomStreams.derive(seed, k));
            System.arraycopy(centres, 0, xbar.data, k * perClass * e, perClass * e);
        }
        return xbar;
    }

    /** {@code p} representative rows of n points: k-means centres if n &gt; p, else the points repeated. */
    static double[] representatives(double[] pts, int n, int e, int p, long seed) {
        if (n > p) {
            return new KMeans(p, 5, 200, 1e-4).fit(pts, n, e, seed).centres();
        }
        double[] out = new double[p * e];
        for (int r = 0; r < p; r++) {
            System.arraycopy(pts, (r % n) * e, out, r * e, e);
        }
        return out;
    }

    private void optimise(Objective obj, int n) {
        Optimizer opt = newOptimizer();
        int bs = Math.min(cfg.batchSize(), n);
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "vi-batches"));
        for (int epoch = 0; epoch < cfg.epochs(); epoch++) {
            int[] perm = RandomStreams.permutation(n, rng);
            double total = 0;
            int batches = 0;
            for (int from = 0; from < n; from += bs) {
                int[] batchRows = Arrays.copyOfRange(perm, from, Math.min(n, from + bs));
                total += obj.evaluate(batchRows, true, obj.hasParameters());
                batches++;
                if (obj.hasParameters()) {
                    opt.step(obj.params);
                    obj.params.zeroGradients();
                }
            }
            epochLoss.add(total / Math.max(1, batches));
        }
    }

    /**
     * The summed node losses sum_v -ELBO_v / n_v of a batch as a function of the trainable parameters (feature map,
     * inducing inputs, kernel hyperparameters), with their gradients accumulated into {@link #params}.
     */
    final class Objective {
        final FeatureMap map;
        final float[] x;
        final int d;
        final int[] labels;
        final DMatrixRMaj xbar;
        final List<ViNode> nodes;
        final List<int[]> nodeRows;
        final Parameters params = new Parameters();
        private final double[] xbarGrad;
        private final double[][] hyperGrad;
        private Mlp.Batch batch;
        private int batchCapacity;

        Objective(FeatureMap map, float[] x, int d, int[] labels, DMatrixRMaj xbar, List<ViNode> nodes,
                  List<int[]> nodeRows) {
            this.map = map;
            this.x = x;
            this.d = d;
            this.labels = labels;
            this.xbar = xbar;
            this.nodes = nodes;
            this.nodeRows = nodeRows;
            if (map.mlp() != null) {
                params.addAll(map.mlp().parameters());
            }
            xbarGrad = cfg.learnInducing() ? params.add(xbar.data) : null;
            hyperGrad = new double[nodes.size()][];
            if (cfg.learnHyper()) {
                for (int v = 0; v < nodes.size(); v++) {
                    hyperGrad[v] = params.add(nodes.get(v).logHyper);
                }
            }
        }

        boolean hasParameters() {
            return params.count() > 0;
        }

        /**
         * The loss of the batch. With {@code update}, every node reached first updates its c and takes its natural-
         * gradient step (Algorithm 1) and the loss is the bound at the updated variational parameters. With
         * {@code gradient}, the parameter gradients are added into {@link #params}.
         */
        double evaluate(int[] batchRows, boolean update, boolean gradient) {
            int s = batchRows.length;
            Mlp mlp = map.mlp();
            int e = map.outputDim();
            DMatrixRMaj emb = new DMatrixRMaj(s, e);
            Mlp.Batch b = null;
            if (mlp != null) {
                if (batch == null || batchCapacity < s) {
                    batch = mlp.newBatch(s);
                    batchCapacity = s;
                }
                b = batch;
                b.setInput(x, batchRows, 0, s);
                mlp.forward(b);
                System.arraycopy(b.output(), 0, emb.data, 0, s * e);
            } else {
                for (int i = 0; i < s; i++) {
                    int src = batchRows[i] * d;
                    for (int j = 0; j < d; j++) {
                        emb.data[i * d + j] = x[src + j];
                    }
                }
            }
            ViNode.Gradient[] grads = new ViNode.Gradient[nodes.size()];
            int[][] positions = new int[nodes.size()][];
            Parallel.forEach(executor, nodes.size(), v -> {
                ViNode node = nodes.get(v);
                int[] members = nodeRows.get(v);
                int[] pos = new int[s];
                int cnt = 0;
                for (int i = 0; i < s; i++) {
                    if (Arrays.binarySearch(node.node.classes, labels[batchRows[i]]) >= 0) {
                        pos[cnt++] = i;
                    }
                }
                if (cnt == 0) {
                    return;
                }
                pos = Arrays.copyOf(pos, cnt);
                DMatrixRMaj xb = new DMatrixRMaj(cnt, e);
                boolean[] right = new boolean[cnt];
                int[] local = new int[cnt];
                for (int i = 0; i < cnt; i++) {
                    System.arraycopy(emb.data, pos[i] * e, xb.data, i * e, e);
                    int row = batchRows[pos[i]];
                    right[i] = node.node.goesRight(labels[row]);
                    local[i] = Arrays.binarySearch(members, row);
                }
                ViNode.Forward f = node.new Forward(xbar, xb, right, local);
                if (update) {
                    node.update(f, cfg.naturalLr());
                }
                // kernels are unchanged by the update, so the same forward pass serves the bound
                grads[v] = node.objective(f, cfg.elbo(), gradient);
                positions[v] = pos;
            });
            double[] outGrad = gradient && b != null ? b.outputGradient() : null;
            if (outGrad != null) {
                Arrays.fill(outGrad, 0, s * e, 0.0);
            }
            double total = 0;
            for (int v = 0; v < nodes.size(); v++) {
                ViNode.Gradient g = grads[v];
                if (g == null) {
                    continue;
                }
                total += g.loss();
                if (!gradient) {
                    continue;
                }
                if (xbarGrad != null) {
                    int[] rows = nodes.get(v).inducingRows;
                    for (int r = 0; r < rows.length; r++) {
                        for (int j = 0; j < e; j++) {
                            xbarGrad[rows[r] * e + j] += g.dZ().data[r * e + j];
                        }
                    }
                }
                if (outGrad != null) {
                    int[] pos = positions[v];
                    for (int i = 0; i < pos.length; i++) {
                        for (int j = 0; j < e; j++) {
                            outGrad[pos[i] * e + j] += g.dX().data[i * e + j];
                        }
                    }
                }
                if (hyperGrad[v] != null) {
                    for (int h = 0; h < hyperGrad[v].length; h++) {
                        hyperGrad[v][h] += g.dHyper()[h];
                    }
                }
            }
            if (outGrad != null) {
                mlp.backward(b, false);
            }
            return total;
        }
    }
}
