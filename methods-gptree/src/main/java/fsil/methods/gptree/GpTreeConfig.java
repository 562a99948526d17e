package fsil.methods.gptree;

import fsil.api.Params;
import fsil.core.gp.Kernel;
import fsil.core.gp.KernelFamily;

/** The resolved parameters of one GP-Tree configuration (see {@link GpTreeMethod} for their documentation). */
record GpTreeConfig(
        TreeBuilder.Kind tree,
        int kmeansRestarts,
        GpTreeMethod.Inference inference,
        GibbsNode.Options gibbs,
        KernelFamily gibbsKernel,
        double gibbsOutputscale,
        double gibbsLengthscale,
        KernelFamily kernel,
        double outputscale,
        double lengthscale,
        double viJitter,
        int inducingPerClass,
        double naturalLr,
        ViNode.Elbo elbo,
        int pretrainEpochs,
        int epochs,
        int batchSize,
        GpTreeMethod.Optimizer optimizer,
        double learningRate,
        boolean deepKernel,
        int dklHidden,
        int dklOut,
        boolean learnInducing,
        boolean learnHyper,
        GpTreeMethod.NovelTree novelTree) {

    static GpTreeConfig of(Params p) {
        return new GpTreeConfig(
                p.get(GpTreeMethod.TREE),
                p.get(GpTreeMethod.KMEANS_RESTARTS),
                p.get(GpTreeMethod.INFERENCE),
                new GibbsNode.Options(p.get(GpTreeMethod.CHAINS), p.get(GpTreeMethod.STEPS),
                        p.get(GpTreeMethod.DRAW),
                        p.get(GpTreeMethod.PREDICTIVE),
                        p.get(GpTreeMethod.GIBBS_JITTER)),
                p.get(GpTreeMethod.GIBBS_KERNEL),
                p.get(GpTreeMethod.GIBBS_OUTPUTSCALE),
                p.get(GpTreeMethod.GIBBS_LENGTHSCALE),
                p.get(GpTreeMethod.KERNEL),
                p.get(GpTreeMethod.OUTPUTSCALE),
                p.get(GpTreeMethod.LENGTHSCALE),
                p.get(GpTreeMethod.VI_JITTER),
                p.get(GpTreeMethod.INDUCING),
                p.get(GpTreeMethod.NATURAL_LR),
                p.get(GpTreeMethod.ELBO),
                p.get(GpTreeMethod.PRETRAIN_EPOCHS),
                p.get(GpTreeMethod.EPOCHS),
                p.get(GpTreeMethod.BATCH_SIZE),
                p.get(GpTreeMethod.OPTIMIZER),
                p.get(GpTreeMethod.LEARNING_RATE),
                p.get(GpTreeMethod.DEEP_KERNEL),
                p.get(GpTreeMethod.DKL_HIDDEN),
                p.get(GpTreeMethod.DKL_OUT),
                p.get(GpTreeMethod.LEARN_INDUCING),
                p.get(GpTreeMethod.LEARN_HYPER),
                p.get(GpTreeMethod.NOVEL_TREE));
    }

    /** A fresh kernel for a Gibbs node (fixed hyperparameters). */
    Kernel newGibbsKernel() {
        return gibbsKernel.create(gibbsOutputscale, gibbsLengthscale);
    }

    /** A fresh kernel for a VI node (initial hyperparameters; learned per node). */
    Kernel newViKernel() {
        return kernel.create(outputscale, lengthscale);
    }
}
