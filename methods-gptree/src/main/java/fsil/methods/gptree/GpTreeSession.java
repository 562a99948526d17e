package fsil.methods.gptree;

import fsil.core.nn.FeatureMap;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.Capability;
import fsil.core.concurrent.Parallel;
import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One GP-Tree task unit. The first {@link #learn} is the base session: VI nodes (Algorithm 1, with the deep kernel
 * unless disabled) or Gibbs nodes on the features, depending on {@code inference} and the task kind. Every later
 * {@link #learn} adds new classes without any parameter learning (paper §3.4): the feature map, the base tree and its
 * nodes stay frozen, the new classes' embeddings are stored, and Gibbs nodes are fitted according to
 * {@code novel_tree}:
 * <ul>
 *   <li>{@code gptree} (the paper's choice): a Gibbs sub-tree over all classes added after the base session, and a
 *   shared Gibbs root separating the base classes (represented by their inducing inputs) from every stored novel
 *   embedding;</li>
 *   <li>{@code session} (Table 4 "Session Tree"): a sub-tree over this call's classes only, joined to the existing
 *   tree by a new Gibbs root (earlier classes, by inducing inputs and stored embeddings, versus the new ones);</li>
 *   <li>{@code rebuild} (Table 4 "Rebuild Tree"): the whole tree rebuilt over all classes with Gibbs nodes, base
 *   classes again represented by their inducing inputs.</li>
 * </ul>
 * This is also what happens when a {@code CLASS_INCREMENTAL} stream adds classes in later steps (with all of their
 * training samples stored, not five shots). When the base session used Gibbs nodes, the base classes' "inducing
 * inputs" are {@code inducing} k-means centres of each class's embeddings (the authors' initialisation of X-bar).
 */
final class GpTreeSession implements Session {
    private final GpTreeConfig cfg;
    private final SessionContext ctx;
    private int learnCalls;
    private FeatureMap map;
    private TreeNode root;
    private TreeNode baseTree;
    /** Representative rows of every class seen: base classes -> inducing inputs, novel classes -> embeddings. */
    private final Map<Integer, DMatrixRMaj> reps = new TreeMap<>();
    private final Map<Integer, Boolean> isBase = new TreeMap<>();
    private final Map<String, Double> diagnostics = new LinkedHashMap<>();

    GpTreeSession(GpTreeConfig cfg, SessionContext ctx) {
        this.cfg = cfg;
        this.ctx = ctx;
    }

    @Override
    public void learn(LabeledData data) {
        checkDimension(data.dimension(), "training features");
        data.requireFinite("training features");
        if (data.isEmpty()) {
            throw new InvalidDataException("gptree: learn() got no training samples; every step needs at least one "
                    + "labelled sample of each new class");
        }
        int[] classes = data.classes();
        for (int c : classes) {
            if (reps.containsKey(c)) {
                throw new FsilException("gptree: learn() got samples of class " + c + ", which an earlier learn() "
                        + "already added. GP-Tree adds new classes only (the base tree and its nodes are frozen); "
                        + "give each class's samples in one step.");
            }
        }
        long t0 = System.nanoTime();
        diagnostics.clear();
        long seed = RandomStreams.derive(ctx.seed(), learnCalls);
        if (learnCalls == 0) {
            learnBase(data, classes, seed);
        } else {
            learnNovel(data, classes, seed);
        }
        learnCalls++;
        diagnostics.put("train_seconds", (System.nanoTime() - t0) * 1e-9);
        List<TreeNode> internal = root.internalNodes();
        diagnostics.put("tree_internal_nodes", (double) internal.size());
        int[] depth = root.leafDepths();
        diagnostics.put("tree_depth_mean", Arrays.stream(depth).average().orElse(0));
        diagnostics.put("tree_depth_max", (double) Arrays.stream(depth).max().orElse(0));
        if (root.model instanceof GibbsNode g) {
            diagnostics.put("root_log_marginal", g.logMarginal());
        }
    }

    private boolean useVi() {
        return switch (cfg.inference()) {
            case VI -> true;
            case GIBBS -> false;
            case AUTO -> ctx.task() == Capability.FEWSHOT_CLASS_INCREMENTAL;
        };
    }

    private void learnBase(LabeledData data, int[] classes, long seed) {
        int n = data.size();
        int d = data.dimension();
        if (useVi()) {
            ViTrainer trainer = new ViTrainer(cfg, seed, ctx.executor());
            ViTrainer.Result r = trainer.train(data.features().rawData(), n, d, data.labels(), classes);
            map = r.map();
            baseTree = r.tree();
            putInducing(classes, r.xbar());
            if (!trainer.epochLoss.isEmpty()) {
                diagnostics.put("vi_loss_first_epoch", trainer.epochLoss.get(0));
                diagnostics.put("vi_loss_last_epoch", trainer.epochLoss.get(trainer.epochLoss.size() - 1));
            }
        } else {
            map = FeatureMap.identity(d);
            DMatrixRMaj emb = map.embed(data.features());
            baseTree = gibbsTree(emb, data.labels(), classes, seed);
            int[] y = new int[n];
            for (int i = 0; i < n; i++) {
                y[i] = Arrays.binarySearch(classes, data.labels()[i]);
            }
            DMatrixRMaj xbar = ViTrainer.initialInducing(emb, y, classes.length, cfg.inducingPerClass(),
                    RandomStreams.derive(seed, "inducing"));
            putInducing(classes, xbar);
        }
        for (int c : classes) {
            isBase.put(c, true);
        }
        root = baseTree;
    }

    /** Base classes are represented by their rows of the class-major inducing matrix. */
    private void putInducing(int[] classes, DMatrixRMaj xbar) {
        int p = cfg.inducingPerClass();
        int e = xbar.numCols;
        for (int k = 0; k < classes.length; k++) {
            DMatrixRMaj z = new DMatrixRMaj(p, e);
            System.arraycopy(xbar.data, k * p * e, z.data, 0, p * e);
            reps.put(classes[k], z);
        }
    }

    private void learnNovel(LabeledData data, int[] classes, long seed) {
        DMatrixRMaj emb = map.embed(data.features());
        int e = emb.numCols;
        int[] labels = data.labels();
        for (int c : classes) {
            int cnt = 0;
            for (int l : labels) {
                cnt += l == c ? 1 : 0;
            }
            DMatrixRMaj z = new DMatrixRMaj(cnt, e);
            int r = 0;
            for (int i = 0; i < labels.length; i++) {
                if (labels[i] == c) {
                    System.arraycopy(emb.data, i * e, z.data, r * e, e);
                    r++;
                }
            }
            reps.put(c, z);
            isBase.put(c, false);
        }
        int[] all = reps.keySet().stream().mapToInt(Integer::intValue).toArray();
        switch (cfg.novelTree()) {
            case SESSION -> {
                TreeNode sub = gibbsTree(emb, labels, classes, seed);
                root = joinWithRoot(root, sub, all, seed);
            }
            case REBUILD -> {
                Stack s = stack(all);
                root = gibbsTree(s.x, s.labels, all, seed);
            }
            case GPTREE -> {
                int[] novel = isBase.entrySet().stream().filter(en -> !en.getValue()).mapToInt(Map.Entry::getKey).toArray();
                Stack s = stack(novel);
                TreeNode sub = gibbsTree(s.x, s.labels, novel, seed);
                root = joinWithRoot(baseTree, sub, all, seed);
            }
        }
    }

    /** A new Gibbs root over {@code all} classes: the classes of {@code left} (label 0) versus those of {@code right}. */
    private TreeNode joinWithRoot(TreeNode left, TreeNode right, int[] all, long seed) {
        Stack l = stack(left.classes);
        Stack r = stack(right.classes);
        int e = l.x.numCols;
        DMatrixRMaj x = new DMatrixRMaj(l.x.numRows + r.x.numRows, e);
        System.arraycopy(l.x.data, 0, x.data, 0, l.x.data.length);
        System.arraycopy(r.x.data, 0, x.data, l.x.data.length, r.x.data.length);
        boolean[] side = new boolean[x.numRows];
        Arrays.fill(side, l.x.numRows, side.length, true);
        TreeNode node = TreeNode.internal(all, left, right);
        node.model = GibbsNode.fit(x, side, cfg.newGibbsKernel(), cfg.gibbs(),
                TreeBuilder.nodeSeed(RandomStreams.derive(seed, "gibbs"), all), ctx.executor());
        return node;
    }

    private record Stack(DMatrixRMaj x, int[] labels) {
    }

    /** The representative rows of the given classes, stacked. */
    private Stack stack(int[] classes) {
        int rows = 0;
        int e = map.outputDim();
        for (int c : classes) {
            rows += reps.get(c).numRows;
        }
        DMatrixRMaj x = new DMatrixRMaj(rows, e);
        int[] y = new int[rows];
        int r = 0;
        for (int c : classes) {
            DMatrixRMaj z = reps.get(c);
            System.arraycopy(z.data, 0, x.data, r * e, z.numRows * e);
            Arrays.fill(y, r, r + z.numRows, c);
            r += z.numRows;
        }
        return new Stack(x, y);
    }

    /** The tree over {@code classes} from the class means of (x, labels), with a Gibbs GP at every internal node. */
    private TreeNode gibbsTree(DMatrixRMaj x, int[] labels, int[] classes, long seed) {
        int e = x.numCols;
        TreeNode tree = new TreeBuilder(cfg.tree(), cfg.kmeansRestarts(), RandomStreams.derive(seed, "tree"))
                .build(classes, TreeBuilder.classMeans(x.data, labels, classes, e), e);
        long gibbsSeed = RandomStreams.derive(seed, "gibbs");
        for (TreeNode t : tree.internalNodes()) {
            int[] rows = ViTrainer.membersOf(t, labels);
            DMatrixRMaj xn = new DMatrixRMaj(rows.length, e);
            boolean[] right = new boolean[rows.length];
            for (int i = 0; i < rows.length; i++) {
                System.arraycopy(x.data, rows[i] * e, xn.data, i * e, e);
                right[i] = t.goesRight(labels[rows[i]]);
            }
            t.model = GibbsNode.fit(xn, right, cfg.newGibbsKernel(), cfg.gibbs(),
                    TreeBuilder.nodeSeed(gibbsSeed, t.classes), ctx.executor());
        }
        return tree;
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        checkDimension(queries.cols(), "query features");
        queries.requireFinite("query features");
        if (root == null) {
            throw new FsilException("gptree: predict() called before any class was learned");
        }
        DMatrixRMaj q = map.embed(queries);
        return Prediction.of(root.classes, pathProbabilities(root, q, ctx));
    }

    /** P(class | x) as the product of branch probabilities along each class's root-to-leaf path (Eq. 9). */
    static double[] pathProbabilities(TreeNode root, DMatrixRMaj q, SessionContext ctx) {
        int t = q.numRows;
        int c = root.classes.length;
        List<TreeNode> internal = root.internalNodes();
        double[][] pr = new double[internal.size()][];
        Parallel.forEach(ctx.executor(), internal.size(), v -> pr[v] = internal.get(v).model.probabilityRight(q));
        double[] p = new double[t * c];
        Arrays.fill(p, 1.0);
        for (int v = 0; v < internal.size(); v++) {
            TreeNode node = internal.get(v);
            double[] right = pr[v];
            for (int k = 0; k < node.classes.length; k++) {
                int col = Arrays.binarySearch(root.classes, node.classes[k]);
                boolean r = node.goesRight(node.classes[k]);
                for (int j = 0; j < t; j++) {
                    double pj = Math.min(1.0, Math.max(0.0, right[j]));
                    p[j * c + col] *= r ? pj : 1.0 - pj;
                }
            }
        }
        for (int j = 0; j < t; j++) {
            double s = 0;
            for (int k = 0; k < c; k++) {
                s += p[j * c + k];
            }
            for (int k = 0; k < c; k++) {
                p[j * c + k] /= s;
            }
        }
        return p;
    }

    private void checkDimension(int got, String what) {
        if (got != ctx.dimension()) {
            throw new InvalidDataException("gptree: " + what + " have " + got + " columns but the task has dimension "
                    + ctx.dimension());
        }
    }

    @Override
    public long memoryBytes() {
        long b = map == null ? 0 : 8L * map.parameterCount();
        for (DMatrixRMaj z : reps.values()) {
            b += 8L * z.data.length;
        }
        if (root != null) {
            for (TreeNode t : root.internalNodes()) {
                b += t.model.memoryBytes();
            }
        }
        return b;
    }

    @Override
    public Map<String, Double> diagnostics() {
        return Map.copyOf(diagnostics);
    }

    /** The current tree (for tests and notebooks). */
    TreeNode tree() {
        return root;
    }
}
