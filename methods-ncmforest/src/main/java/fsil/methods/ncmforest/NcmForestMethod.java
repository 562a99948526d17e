package fsil.methods.ncmforest;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;

import java.util.EnumSet;
import java.util.List;

/**
 * Nearest Class Mean Forests with incremental learning of new classes (Ristin, Guillaumin, Gall, Van Gool,
 * CVPR 2014). A random forest whose split nodes send a sample to the side assigned to its nearest centroid
 * among a random subset of class means; new classes are added with ULS, IGT, RTST or RUST, or by retraining.
 * The same tree code with {@code split=axis} is the conventional random forest the paper compares against.
 *
 * <p>Capabilities: class-incremental only. With the paper's minimum leaf size mu = 10 a class with fewer than
 * mu samples can never have a leaf of its own (it always shares one with another class), so few-shot protocols
 * are not offered; see the module README.
 */
public final class NcmForestMethod extends AbstractMethod {

    static final Param<Integer> TREES = Param.integer("trees", 50, 1, 100_000,
            "number of trees T (paper Sec. 5.1: 50)");
    static final Param<Integer> CANDIDATES = Param.integer("candidates", 1024, 1, 1 << 20,
            "|F^n|: candidate split functions scored per node (paper: 1024). NCM: distinct left/right partitions of "
                    + "the node's centroids, all of them when 2^(|K^n|-1)-1 <= candidates; axis: unused (every "
                    + "threshold of each sampled feature is scored)");
    static final Param<Integer> MIN_LEAF = Param.integer("min_leaf", 10, 1, 1_000_000,
            "mu, the minimum number of training samples at a leaf (paper: 10); see mu_rule");
    static final Param<MuRule> MU_RULE = Param.option("mu_rule", MuRule.MIN_LEAF,
            "what mu bounds (module README, Decision 2). min-leaf: a split is valid only if both children hold "
                    + ">= mu samples (nodes with < 2 mu samples stay leaves; RUST cuts nodes with a child below mu). "
                    + "min-split: nodes with < mu samples are not split, children may be any non-empty size");
    static final Param<Integer> MAX_DEPTH = Param.integer("max_depth", 0, 0, 100_000,
            "maximum depth of a leaf (root = 0); 0 = unlimited (the paper sets none)");
    static final Param<SubsetSizeRule> SUBSET_SIZE = Param.option("subset_size", SubsetSizeRule.SQRT,
            "|K^n| as a function of m = number of classes present at the node (not all classes seen), at least 2: "
                    + "sqrt = ceil(sqrt m) (paper), log = ceil(log2 m), fraction = ceil(subset_fraction * m) "
                    + "(paper Fig. 3)");
    static final Param<Double> SUBSET_FRACTION = Param.real("subset_fraction", 0.2, 1e-6, 1.0,
            "fraction of the node's classes used as centroids when subset_size=fraction (paper Fig. 3: 0.2)");
    static final Param<SplitKind> SPLIT = Param.option("split", SplitKind.NCM,
            "split family: ncm = nearest class mean splits (the paper's NCMF); axis = axis-aligned thresholds of a "
                    + "conventional random forest (the paper's RF baseline) in the same tree code");
    static final Param<Integer> AXIS_FEATURES = Param.integer("axis_features", 0, 0, 1_000_000,
            "split=axis: features drawn per node, each with its best threshold; 0 = ceil(sqrt(d)) (Breiman)");
    static final Param<Strategy> STRATEGY = Param.option("strategy", Strategy.RUST,
            "how learn() calls after the first add classes: uls (update leaf statistics), igt (grow leaves that "
                    + "receive samples), rtst (re-train selected subtrees), rust (re-use subtrees: reservoir "
                    + "insertion of new centroids; needs split=ncm), retrain (new forest on all data, the baseline)");
    static final Param<Double> PI = Param.real("pi", 0.8, 0.0, 1.0,
            "pi of RTST and RUST: the fraction of the tree selected for re-training / update (paper: 0.8); "
                    + "pi = 0 makes both equal to IGT");
    static final Param<SelectionRule> SELECTION = Param.option("selection", SelectionRule.NODES,
            "what |T_n| in p(n) ~ 1/(|T_n|+1) and pi count. nodes (default): nodes in the subtree, "
                    + "select ceil(pi * #split nodes) nodes, so pi = 1 re-trains the whole tree as the paper says. "
                    + "samples: training samples in the subtree, selections do not nest, stop when they hold a "
                    + "fraction pi of the samples (never re-trains the root at pi = 1)");
    static final Param<ReservoirPolicy> RUST_INSERTION = Param.option("rust_insertion", ReservoirPolicy.ADD_ONLY,
            "RUST's reservoir rule for a new class at a node with s centroids drawn from m classes. "
                    + "add-only: insert with prob. s/(m+1), never evict (literal reading; |K^n| grows linearly). "
                    + "algorithm-r: insert with prob. s/(m+1) and evict a random member (fixed size). exact-uniform: "
                    + "keep K^n a uniform subset of the size subset_size gives for m+1 classes");
    static final Param<RustNodes> RUST_NODES = Param.option("rust_nodes", RustNodes.SELECTED,
            "which split nodes RUST may update. selected: the nodes drawn as for RTST with pi (paper: 'The nodes "
                    + "are selected for update as in RTST'); all: every split node reached by a new class");
    static final Param<Boolean> BAGGING = Param.bool("bagging", false,
            "give each tree a bootstrap of the data (online bagging: every sample repeated Poisson(1) times per "
                    + "tree); off by default, as in the paper (which mentions none)");
    static final Param<Double> LEAF_PRIOR = Param.real("leaf_prior", 0.0, 0.0, 1e6,
            "Laplace pseudo-count a added to every learned class in every leaf: P_l(k) = (n_l(k)+a)/(|S^l|+a C). "
                    + "0 = the paper's unsmoothed leaf distribution (a class absent from a leaf gets 0)");

    /** What mu bounds: the size of every child (min-leaf) or of a node to split (min-split). */
    enum MuRule { MIN_LEAF, MIN_SPLIT }

    /** Which split nodes RUST may update. */
    enum RustNodes { SELECTED, ALL }

    /** Feature whitening inside the method. */
    enum Standardize { NONE, INITIAL }

    static final Param<Standardize> STANDARDIZE = Param.option("standardize", Standardize.NONE,
            "feature whitening inside the method. none: use the features as given. initial: whiten every feature by "
                    + "the mean and standard deviation of the first learn() call's data and apply that transform to all "
                    + "later training and query data (paper Sec. 5; the paper's retrain baseline instead re-estimated "
                    + "it on all data)");

    static final List<Param<?>> PARAMETERS = List.of(TREES, CANDIDATES, MIN_LEAF, MU_RULE, MAX_DEPTH, SUBSET_SIZE,
            SUBSET_FRACTION, SPLIT, AXIS_FEATURES, STRATEGY, PI, SELECTION, RUST_INSERTION, RUST_NODES, BAGGING,
            LEAF_PRIOR, STANDARDIZE);

    public NcmForestMethod() {
        super("ncmforest",
                "NCM forest: random forest with nearest-class-mean splits; adds classes by ULS, IGT, RTST, RUST or "
                        + "retraining (split=axis: conventional random forest)",
                "Ristin, Guillaumin, Gall, Van Gool. Incremental Learning of NCM Forests for Large-Scale Image "
                        + "Classification. CVPR 2014",
                EnumSet.of(Capability.CLASS_INCREMENTAL), PARAMETERS);
    }

    @Override
    public Learner learner(Params params, Background background) {
        ForestConfig cfg = ForestConfig.from(params);
        return ctx -> new NcmForestSession(cfg, ctx);
    }
}
