package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.concurrent.Parallel;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.PoissonSampler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * One NCM forest learning a stream of class chunks. The first learn() trains T trees from scratch; every later
 * call applies the configured {@link Strategy} to each tree. Trees are trained and updated in parallel through
 * the context's executor, each with its own seed {@code derive(derive(seed, learnIndex), tree)}; predictions are
 * accumulated per query over the trees in a fixed order, so no number depends on the thread count.
 *
 * <p>All training samples are kept (the paper's setting, needed by IGT, RTST and RUST) and counted in
 * {@link #memoryBytes()}.
 */
final class NcmForestSession implements Session {
    /**
     * Queries routed through a tree together ({@link BatchRouter}): the larger the block, the more of the work falls
     * to nodes reached by enough queries for the filter that runs across queries.
     */
    static final int PREDICT_BLOCK = 1024;
    /** Blocks handled together; bounds the leaves kept (trees x blocks x block references). */
    static final int CHUNK_BLOCKS = 16;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

    private final ForestConfig cfg;
    private final SessionContext ctx;
    private final SampleStore store;
    private final ClassIndex classIndex = new ClassIndex();
    private final TreeGrower grower;
    private final TreeUpdater updater;
    private final RustUpdate rust;
    private Tree[] trees;
    private Standardizer standardizer;
    private int learnCount;
    private final Map<String, Double> trainDiagnostics = new LinkedHashMap<>();
    private final Map<String, Double> testDiagnostics = new LinkedHashMap<>();
    private long memory;
    /** Sums over the learn() calls after the first (the incremental steps): comparisons, CPU and wall seconds. */
    private long incrementalComparisons;
    /** Exact distances the last prediction needed to resolve near ties in the nearest-centroid filter (tests). */
    long lastExactDistances;
    private long incrementalCpuNanos;
    private double incrementalSeconds;

    NcmForestSession(ForestConfig cfg, SessionContext ctx) {
        this.cfg = cfg;
        this.ctx = ctx;
        this.store = new SampleStore(ctx.dimension());
        this.grower = new TreeGrower(SplitSearch.of(cfg.split()));
        this.updater = new TreeUpdater(grower);
        this.rust = new RustUpdate(grower);
    }

    @Override
    public void learn(LabeledData data) {
        data.requireFinite("training features");
        if (data.dimension() != store.dim()) {
            throw new InvalidDataException("training features have dimension " + data.dimension()
                    + " but the session was created for dimension " + store.dim());
        }
        if (data.isEmpty()) {
            return;
        }
        long t0 = System.nanoTime();
        int classesBefore = classIndex.size();
        int[] internal = classIndex.intern(data.labels());
        FeatureMatrix features = data.features();
        if (cfg.standardize()) {
            if (standardizer == null) {
                standardizer = Standardizer.fit(features);
            }
            features = standardizer.apply(features);
        }
        int first = store.append(features, internal);
        int n = store.size();
        int c = classIndex.size();
        boolean[] isNew = new boolean[c];
        for (int k = classesBefore; k < c; k++) {
            isNew[k] = true;
        }
        long learnSeed = RandomStreams.derive(ctx.seed(), learnCount);
        Entropy entropy = new Entropy(n + 1);
        int t = cfg.trees();
        boolean fresh = trees == null || cfg.strategy() == Strategy.RETRAIN;
        Tree[] next = fresh ? new Tree[t] : trees;
        TreeWork[] works = new TreeWork[t];
        forEach(t, i -> {
            long cpu0 = cpuNanos();
            TreeWork w = new TreeWork(cfg, store, c, entropy, RandomStreams.derive(learnSeed, i));
            works[i] = w;
            if (fresh) {
                next[i] = grower.train(bag(0, n, w), w);
            } else {
                int[] entries = bag(first, n, w);
                switch (cfg.strategy()) {
                    case ULS -> updater.updateLeafStatistics(next[i], entries, w);
                    case IGT -> updater.growTrees(next[i], entries, w);
                    case RTST -> updater.retrainSubtrees(next[i], entries, w);
                    case RUST -> rust.apply(next[i], entries, isNew, n, w);
                    default -> throw new AssertionError(cfg.strategy());
                }
            }
            w.cpuNanos = cpuNanos() - cpu0;
        });
        trees = next;
        learnCount++;
        recordTraining(works, (System.nanoTime() - t0) * 1e-9, fresh, learnCount > 1);
    }

    /**
     * CPU time of the calling thread. Training time is reported as CPU time too because wall time on a loaded
     * machine measures the other jobs as much as this one; the sum over the tree tasks does not depend on how
     * many threads ran them.
     */
    private static long cpuNanos() {
        return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : 0L;
    }

    /** Sample references [from, to) for one tree: each once, or Poisson(1) times under online bagging. */
    private int[] bag(int from, int to, TreeWork w) {
        if (!cfg.bagging()) {
            int[] r = new int[to - from];
            for (int i = 0; i < r.length; i++) {
                r[i] = from + i;
            }
            return r;
        }
        org.apache.commons.rng.sampling.distribution.DiscreteSampler poisson = PoissonSampler.of(w.bagRng, 1.0);
        IntList out = new IntList(to - from);
        for (int i = from; i < to; i++) {
            for (int k = poisson.sample(); k > 0; k--) {
                out.add(i);
            }
        }
        return out.toArray();
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        queries.requireFinite("query features");
        if (trees == null) {
            throw new FsilException("predict() was called before learn(): the NCM forest has no classes yet");
        }
        if (queries.cols() != store.dim()) {
            throw new InvalidDataException("query features have dimension " + queries.cols()
                    + " but the session was trained on dimension " + store.dim());
        }
        int[] order = new int[trees.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        FeatureMatrix q = standardizer == null ? queries : standardizer.apply(queries);
        return Prediction.of(classIndex.sortedGlobal(), posteriors(q, order));
    }

    /**
     * Forest posteriors, row-major queries x classes (sorted global ids): the average over the trees, taken in
     * {@code treeOrder}, of the class distributions of the leaves reached. A leaf's distribution is
     * (n_l(k) + a) / (|S^l| + a C) with a = leaf_prior (0 by default: a class absent from a leaf gets 0); an
     * empty leaf (possible only for an empty bag) gives the uniform distribution.
     */
    double[] posteriors(FeatureMatrix queries, int[] treeOrder) {
        return posteriors(queries, treeOrder, true);
    }

    /**
     * As {@link #posteriors(FeatureMatrix, int[])}; {@code grouped} routes each block of {@link #PREDICT_BLOCK}
     * queries through a tree together ({@link BatchRouter}), otherwise every query walks down alone with each
     * split's own rule. Both reach the same leaves, so the posteriors are identical; the second is a reference for
     * the tests and for NcmForestTestTimeBench.
     *
     * <p>Work is done {@link #CHUNK_BLOCKS} blocks at a time: one task per block and tree finds the leaves, then one
     * task per block adds each query's leaf distributions in tree order (so no number depends on the threads).
     */
    double[] posteriors(FeatureMatrix queries, int[] treeOrder, boolean grouped) {
        int n = queries.rows();
        int c = classIndex.size();
        int[] colOf = classIndex.columnOfInternal();
        double[] p = new double[n * c];
        float[] q = queries.rawData();
        int d = queries.cols();
        double prior = cfg.leafPrior();
        int trees = treeOrder.length;
        int blocks = (n + PREDICT_BLOCK - 1) / PREDICT_BLOCK;
        long[] comparisons = new long[blocks * trees];
        long[] depths = new long[blocks * trees];
        long[] exact = new long[blocks * trees];
        for (int first = 0; first < blocks; first += CHUNK_BLOCKS) {
            int chunkFirst = first;
            int chunk = Math.min(CHUNK_BLOCKS, blocks - first);
            int from = chunkFirst * PREDICT_BLOCK;
            Node[][] leaves = new Node[trees][Math.min(n, (chunkFirst + chunk) * PREDICT_BLOCK) - from];
            forEach(chunk * trees, task -> {
                int b = chunkFirst + task / trees;
                int ti = task % trees;
                int lo = b * PREDICT_BLOCK;
                int size = Math.min(n, lo + PREDICT_BLOCK) - lo;
                Node[] out = leaves[ti];
                Tree tree = this.trees[treeOrder[ti]];
                int slot = b * trees + ti;
                if (grouped) {
                    int[] rows = new int[size];
                    for (int i = 0; i < size; i++) {
                        rows[i] = lo + i;
                    }
                    Node[] found = new Node[size];
                    BatchRouter router = new BatchRouter(q, d, size);
                    router.route(tree.root, rows, size, found);
                    System.arraycopy(found, 0, out, lo - from, size);
                    comparisons[slot] = router.comparisons;
                    depths[slot] = router.depths;
                    exact[slot] = router.exactDistances();
                } else {
                    long comp = 0;
                    long dep = 0;
                    for (int i = 0; i < size; i++) {
                        Node node = tree.root;
                        while (!node.isLeaf()) {
                            comp += node.split.comparisons();
                            node = node.split.goesRight(q, (lo + i) * d) ? node.right : node.left;
                        }
                        dep += node.depth;
                        out[lo + i - from] = node;
                    }
                    comparisons[slot] = comp;
                    depths[slot] = dep;
                }
            });
            forEach(chunk, bi -> {
                int lo = (chunkFirst + bi) * PREDICT_BLOCK;
                int hi = Math.min(n, lo + PREDICT_BLOCK);
                for (int i = lo; i < hi; i++) {
                    int row = i * c;
                    double uniform = 0;
                    for (int ti = 0; ti < trees; ti++) {
                        Node node = leaves[ti][i - from];
                        if (node.total == 0) {
                            uniform += 1.0 / c;
                            continue;
                        }
                        double z = node.total + prior * c;
                        for (int k = 0; k < node.classes.length; k++) {
                            p[row + colOf[node.classes[k]]] += node.counts[k] / z;
                        }
                        if (prior > 0) {
                            uniform += prior / z;
                        }
                    }
                    double scale = 1.0 / trees;
                    for (int k = 0; k < c; k++) {
                        p[row + k] = (p[row + k] + uniform) * scale;
                    }
                }
            });
        }
        long comp = 0;
        long dep = 0;
        long ex = 0;
        for (int i = 0; i < comparisons.length; i++) {
            comp += comparisons[i];
            dep += depths[i];
            ex += exact[i];
        }
        lastExactDistances = ex;
        testDiagnostics.clear();
        if (n > 0) {
            double per = (double) n * trees;
            testDiagnostics.put("test_cost", comp / per);
            testDiagnostics.put("test_path_depth", dep / per);
        }
        return p;
    }

    /** Runs body(0..count-1) on the context's executor and waits; results are combined by the caller in order. */
    private void forEach(int count, IntConsumer body) {
        Parallel.forEach(ctx.executor(), count, body);
    }

    private void recordTraining(TreeWork[] works, double seconds, boolean fresh, boolean incremental) {
        TreeWork total = works[0];
        for (int i = 1; i < works.length; i++) {
            total.addCounters(works[i]);
        }
        if (incremental) {
            incrementalComparisons += total.distanceEvals;
            incrementalCpuNanos += total.cpuNanos;
            incrementalSeconds += seconds;
        }
        trainDiagnostics.clear();
        trainDiagnostics.put("train_seconds", seconds);
        trainDiagnostics.put("train_cpu_seconds", total.cpuNanos * 1e-9);
        trainDiagnostics.put("train_from_scratch", fresh ? 1.0 : 0.0);
        trainDiagnostics.put("train_comparisons", (double) total.distanceEvals);
        trainDiagnostics.put("train_nodes_trained", (double) total.nodesTrained);
        trainDiagnostics.put("train_candidates_scored", (double) total.candidatesScored);
        trainDiagnostics.put("train_nodes_selected", (double) total.nodesSelected);
        trainDiagnostics.put("train_nodes_cut", (double) total.nodesCut);
        trainDiagnostics.put("train_nodes_updated", (double) total.nodesUpdated);
        trainDiagnostics.put("train_samples_moved", (double) total.samplesMoved);
        trainDiagnostics.put("incremental_comparisons", (double) incrementalComparisons);
        trainDiagnostics.put("incremental_cpu_seconds", incrementalCpuNanos * 1e-9);
        trainDiagnostics.put("incremental_seconds", incrementalSeconds);
        long leaves = 0;
        long nodes = 0;
        long depthSum = 0;
        int depthMax = 0;
        long mem = store.memoryBytes();
        for (Tree tr : trees) {
            ArrayDeque<Node> stack = new ArrayDeque<>();
            stack.push(tr.root);
            while (!stack.isEmpty()) {
                Node nd = stack.pop();
                nodes++;
                mem += 40;
                if (nd.isLeaf()) {
                    leaves++;
                    depthSum += nd.depth;
                    depthMax = Math.max(depthMax, nd.depth);
                    mem += 4L * nd.samples.length + 4L * nd.classes.length + 4L * nd.counts.length + 48;
                } else {
                    mem += nd.split.memoryBytes();
                    stack.push(nd.right);
                    stack.push(nd.left);
                }
            }
        }
        trainDiagnostics.put("leaf_depth_mean", depthSum / (double) leaves);
        trainDiagnostics.put("leaf_depth_max", (double) depthMax);
        trainDiagnostics.put("leaves_per_tree", leaves / (double) trees.length);
        trainDiagnostics.put("nodes_per_tree", nodes / (double) trees.length);
        trainDiagnostics.put("classes", (double) classIndex.size());
        trainDiagnostics.put("samples", (double) store.size());
        memory = mem;
    }

    @Override
    public long memoryBytes() {
        return memory;
    }

    @Override
    public Map<String, Double> diagnostics() {
        Map<String, Double> out = new LinkedHashMap<>(trainDiagnostics);
        out.putAll(testDiagnostics);
        return Collections.unmodifiableMap(out);
    }

    // --- package-private views for tests -------------------------------------------------------------------------
    Tree[] trees() {
        return trees;
    }

    SampleStore store() {
        return store;
    }

    ClassIndex classIndex() {
        return classIndex;
    }

    ForestConfig config() {
        return cfg;
    }
}
