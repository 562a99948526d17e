package fsil.methods.bavardage;


/**
 * Named hyperparameter settings of BAVARDAGE (T_km, T_vb, s_max, n_step and the mixture model).
 *
 * <p>Values from the paper (Hu, Pateux, Gripon, AISTATS 2023): §4 "Implementation details" for mini-ImageNet
 * (also used for FC100 and CIFAR-FS, §6.3), §6.3 for tiered-ImageNet and CUB. {@link #OFFICIAL} is the default of
 * the authors' code ({@code bavardage.py} argparse: T_km 10, T_vb 4, clp 5, unbalanced), which is also what its
 * README runs for CUB; it has the same numbers as {@link #CUB_UNBALANCED}. Every preset uses n_step = 5 (the
 * code's {@code --nIter_vb}); the paper does not vary it.
 *
 * <p>T_vb and s_max are tied to the scale of the base within-class scatter (S_w is not divided by n_c): with the code's
 * unnormalised scatter they grow with the number of base images per class, so they do not transfer between
 * datasets of different sizes. Choose them on validation classes with
 * {@code fsil run --select 'bavardage.t_vb=...' --select 'bavardage.s_max=...'}, or let {@link #AUTO} choose them.
 *
 * <p>The {@code glyphs-*} and {@code fashion-mnist-*} presets were chosen that way for the built-in datasets with the
 * default {@code pretrained-mlp} backbone and {@code preprocessing=code} ({@code docs/bavardage-results.md}):
 * glyphs on its validation scripts, Fashion-MNIST (no validation classes) on episodes from the base classes' test
 * images with S_w from their training images. They keep T_km = 10 and n_step = 5.
 *
 * <p>{@link #AUTO} (the default) has no fixed T_vb and s_max: {@link AutoTuning} chooses them on the base classes
 * when the learner is built, on a grid expressed relative to the scale of the base scatter.
 */
public enum Preset {
    /**
     * The default: T_vb and s_max (NaN here) are chosen for the data in {@code learner(params, background)} by
     * {@link AutoTuning} on labelled episodes from the base classes; T_km 10, n_step 5, unbalanced as
     * {@link #OFFICIAL}.
     */
    AUTO("auto", 10, Double.NaN, Double.NaN, 5, false),
    OFFICIAL("official", 10, 4, 5, 5, false),
    CUB_BALANCED("cub-balanced", 10, 4, 5, 5, true),
    CUB_UNBALANCED("cub-unbalanced", 10, 4, 5, 5, false),
    MINI_BALANCED("mini-balanced", 10, 50, 2, 5, true),
    MINI_UNBALANCED("mini-unbalanced", 50, 50, 1, 5, false),
    TIERED_BALANCED("tiered-balanced", 10, 100, 2, 5, true),
    TIERED_UNBALANCED("tiered-unbalanced", 100, 100, 1, 5, false),
    GLYPHS_BALANCED("glyphs-balanced", 10, 300, 5, 5, true),
    GLYPHS_UNBALANCED("glyphs-unbalanced", 10, 1000, 10, 5, false),
    FASHION_MNIST_BALANCED("fashion-mnist-balanced", 10, 100_000, 0.3, 5, true),
    FASHION_MNIST_UNBALANCED("fashion-mnist-unbalanced", 10, 100_000, 0.3, 5, false);

    private final String id;
    private final double tKm;
    private final double tVb;
    private final double sMax;
    private final int nStep;
    private final boolean balanced;

    Preset(String id, double tKm, double tVb, double sMax, int nStep, boolean balanced) {
        this.id = id;
        this.tKm = tKm;
        this.tVb = tVb;
        this.sMax = sMax;
        this.nStep = nStep;
        this.balanced = balanced;
    }

    /** The name used for the {@code preset} parameter. */
    public String id() {
        return id;
    }

    /** Soft k-means temperature (multiplies squared distances). */
    public double tKm() {
        return tKm;
    }

    /** Fixed isotropic likelihood precision of the VB model, Lambda = T_vb I (NaN for {@link #AUTO}: chosen). */
    public double tVb() {
        return tVb;
    }

    /** Upper bound of the whitening gains (NaN for {@link #AUTO}: chosen). */
    public double sMax() {
        return sMax;
    }

    /** Number of PLDA + VB iterations. */
    public int nStep() {
        return nStep;
    }

    /** Whether the mixture weights are uniform (balanced setting) instead of Dirichlet-distributed. */
    public boolean balanced() {
        return balanced;
    }
}
