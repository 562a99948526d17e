package fsil.methods.gptree;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.EmbeddingObjective;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.gp.KernelFamily;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * GP-Tree (Achituve, Navon, Yemini, Chechik and Fetaya, ICML 2021): a binary tree over the classes, built by
 * divisive 2-means on normalised class prototypes, with a Polya-Gamma augmented GP classifier at every internal
 * node, fitted by Gibbs sampling or by sparse variational inference with a deep kernel, and an extension to
 * few-shot class-incremental sessions. The paper's baselines are parameters: {@code tree=stick-break} is SBM-GP
 * (Linderman et al. 2015) and {@code tree=random} is "GP-Tree Rnd". See the module README for every decision.
 */
public final class GpTreeMethod extends AbstractMethod {
    static final Param<TreeBuilder.Kind> TREE = Param.option("tree", TreeBuilder.Kind.KMEANS,
            "class tree: kmeans (GP-Tree: 2-means on normalised prototypes), random (balanced random splits, GP-Tree "
                    + "Rnd), stick-break (a chain in label order, SBM-GP)");
    static final Param<Integer> KMEANS_RESTARTS = Param.integer("kmeans_restarts", 50, 1, 10_000,
            "k-means++ restarts per tree split (the authors' n_init = 50)");
    static final Param<Inference> INFERENCE = Param.option("inference", Inference.AUTO,
            "node inference in the first learn(): auto (vi for the few-shot class-incremental base session, gibbs "
                    + "otherwise), gibbs, vi; later sessions always use Gibbs nodes");
    static final Param<Integer> CHAINS = Param.integer("chains", 30, 1, 100_000, "Gibbs: parallel chains M");
    static final Param<Integer> STEPS = Param.integer("steps", 10, 0, 100_000,
            "Gibbs: sweeps T per chain (0 = the initial draw from the prior)");
    static final Param<GibbsNode.Draw> DRAW = Param.option("draw", GibbsNode.Draw.PATHWISE,
            "Gibbs: how f | omega is drawn: pathwise (Matheron, O(n^2) after the factor) or covariance (Cholesky of "
                    + "the explicitly formed posterior covariance)");
    static final Param<GibbsNode.Predictive> PREDICTIVE = Param.option("predictive", GibbsNode.Predictive.GAUSS_HERMITE,
            "Gibbs: predictive per chain, E[sigmoid(f)] by 20-point Gauss-Hermite (Eq. 11-12) or plug-in "
                    + "sigmoid(mean) (paper §C.1)");
    static final Param<KernelFamily> GIBBS_KERNEL = Param.option("gibbs_kernel", KernelFamily.RBF,
            "Gibbs nodes: kernel on L2-normalised inputs");
    static final Param<Double> GIBBS_OUTPUTSCALE = Param.real("gibbs_outputscale", 8.0, 1e-6, 1e6,
            "Gibbs nodes: kernel output scale (fixed; authors: 8)");
    static final Param<Double> GIBBS_LENGTHSCALE = Param.real("gibbs_lengthscale", 1.0, 1e-6, 1e6,
            "Gibbs nodes: kernel length scale (fixed; ignored by linear)");
    static final Param<Double> GIBBS_JITTER = Param.real("gibbs_jitter", 1e-3, 0.0, 1e3,
            "Gibbs nodes: constant added to the diagonal of K (authors: 1e-3)");
    static final Param<KernelFamily> KERNEL = Param.option("kernel", KernelFamily.RBF,
            "VI nodes: kernel on L2-normalised inputs (hyperparameters learned per node)");
    static final Param<Double> OUTPUTSCALE = Param.real("outputscale", 4.0, 1e-6, 1e6,
            "VI nodes: initial output scale (authors: 4)");
    static final Param<Double> LENGTHSCALE = Param.real("lengthscale", 1.0, 1e-6, 1e6,
            "VI nodes: initial length scale");
    static final Param<Double> VI_JITTER = Param.real("vi_jitter", 1e-2, 0.0, 1e3,
            "VI nodes: constant added to the diagonal of K (authors: 1e-2)");
    static final Param<Integer> INDUCING = Param.integer("inducing", 5, 1, 10_000,
            "inducing inputs per class (k-means init); also the base-class representatives in later sessions");
    static final Param<Double> NATURAL_LR = Param.real("natural_lr", 0.1, 1e-6, 1.0,
            "VI: natural-gradient step size rho on (eta, H) (authors' code: 0.1)");
    static final Param<ViNode.Elbo> ELBO = Param.option("elbo", ViNode.Elbo.WENZEL,
            "VI: bound used for gradients: wenzel (correct, batch sum scaled by n/s) or code (the authors': signs "
                    + "flipped inside the theta bracket and no n/s scaling, as in GP_Tree/gp_model.py)");
    static final Param<Integer> PRETRAIN_EPOCHS = Param.integer("pretrain_epochs", 10, 0, 100_000,
            "deep kernel: cross-entropy pre-training epochs before the tree is built");
    static final Param<Integer> EPOCHS = Param.integer("epochs", 20, 0, 100_000, "VI: training epochs");
    static final Param<Integer> BATCH_SIZE = Param.integer("batch_size", 128, 1, 1_000_000,
            "VI and pre-training: minibatch size");
    static final Param<Optimizer> OPTIMIZER = Param.option("optimizer", Optimizer.ADAM,
            "optimiser for theta, inducing inputs and kernel hyperparameters: adam or sgd (momentum 0.9)");
    static final Param<Double> LEARNING_RATE = Param.real("learning_rate", 1e-3, 1e-8, 10.0, "optimiser learning rate");
    static final Param<Boolean> DEEP_KERNEL = Param.bool("deep_kernel", true,
            "VI: learn a feature map g_theta (MLP) under the kernel; false = kernel on the features themselves");
    static final Param<Integer> DKL_HIDDEN = Param.integer("dkl_hidden", 256, 1, 100_000, "deep kernel: hidden width");
    static final Param<Integer> DKL_OUT = Param.integer("dkl_out", 128, 1, 100_000, "deep kernel: embedding size");
    static final Param<Boolean> LEARN_INDUCING = Param.bool("learn_inducing", true, "VI: learn the inducing inputs");
    static final Param<Boolean> LEARN_HYPER = Param.bool("learn_hyper", true, "VI: learn each node's kernel hyperparameters");
    static final Param<NovelTree> NOVEL_TREE = Param.option("novel_tree", NovelTree.GPTREE,
            "how later learn() calls add classes: gptree (Gibbs sub-tree over all novel classes + shared Gibbs root), "
                    + "session (sub-tree of this session's classes + new root), rebuild (whole tree rebuilt with Gibbs "
                    + "nodes) - paper Table 4");
    static final Param<Integer> TRAIN_WAYS = Param.integer("train_ways", 16, 2, 100_000,
            "backbone objective (conv4[objective=gptree]): classes per training episode (capped by the base classes)");
    static final Param<Integer> TRAIN_SHOTS = Param.integer("train_shots", 8, 1, 100_000,
            "backbone objective: samples per class in a training episode (16 x 8 = the authors' batch of 128)");
    static final Param<Integer> TRAIN_VI_STEPS = Param.integer("train_vi_steps", 100, 1, 1_000_000,
            "backbone objective: most coordinate-ascent passes fitting each node's variational parameters per episode");
    static final Param<Double> TRAIN_VI_TOL = Param.real("train_vi_tol", 1e-8, 0.0, 1.0,
            "backbone objective: the fit stops when no c_i moves by more than this (relative to max(1, c_i))");

    /** Node inference in the first learn(). */
    enum Inference { AUTO, GIBBS, VI }

    /** Optimiser of the VI parameters. */
    enum Optimizer { ADAM, SGD }

    /** How later learn() calls add classes to the tree. */
    enum NovelTree { GPTREE, SESSION, REBUILD }

    private static final List<Param<?>> PARAMS = List.of(TREE, KMEANS_RESTARTS, INFERENCE, CHAINS, STEPS, DRAW,
            PREDICTIVE, GIBBS_KERNEL, GIBBS_OUTPUTSCALE, GIBBS_LENGTHSCALE, GIBBS_JITTER, KERNEL, OUTPUTSCALE,
            LENGTHSCALE, VI_JITTER, INDUCING, NATURAL_LR, ELBO, PRETRAIN_EPOCHS, EPOCHS, BATCH_SIZE, OPTIMIZER,
            LEARNING_RATE, DEEP_KERNEL, DKL_HIDDEN, DKL_OUT, LEARN_INDUCING, LEARN_HYPER, NOVEL_TREE, TRAIN_WAYS,
            TRAIN_SHOTS, TRAIN_VI_STEPS, TRAIN_VI_TOL);

    public GpTreeMethod() {
        super("gptree",
                "GP-Tree: Polya-Gamma GP classifiers in a class tree (Gibbs or VI nodes, deep kernel, FSCIL sessions)",
                "Achituve, Navon, Yemini, Chechik and Fetaya, ICML 2021",
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL,
                        Capability.FEWSHOT_CLASS_INCREMENTAL),
                PARAMS);
    }

    /**
     * The base session's objective for a backbone that trains its network with GP-Tree
     * ({@code conv4[objective=gptree(...)]}): the tree's summed node losses on episodes of many base classes
     * ({@link GpTreeObjective}).
     */
    @Override
    public Optional<EmbeddingObjective> objective(Params params) {
        return Optional.of(new GpTreeObjective(GpTreeConfig.of(params), new GpTreeObjective.Settings(
                params.get(TRAIN_WAYS), params.get(TRAIN_SHOTS), params.get(TRAIN_VI_STEPS), params.get(TRAIN_VI_TOL))));
    }

    @Override
    public Learner learner(Params params, Background background) {
        GpTreeConfig cfg = GpTreeConfig.of(params);
        return ctx -> new GpTreeSession(cfg, ctx);
    }
}
