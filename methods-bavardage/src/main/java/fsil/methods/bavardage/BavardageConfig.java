package fsil.methods.bavardage;

import fsil.api.InvalidParameterException;
import fsil.api.Params;

/**
 * The resolved hyperparameters of one BAVARDAGE configuration: the preset with the individual overrides applied.
 *
 * @param variant             full method or one of the Table 2 ablations
 * @param preprocessing       whitening as in the authors' code or as in the paper
 * @param tKm                 soft k-means temperature (multiplies squared distances)
 * @param nKm                 soft k-means rounds
 * @param tVb                 VB likelihood precision, Lambda = tVb I
 * @param sMax                upper bound of the whitening gains
 * @param nStep               PLDA + VB iterations
 * @param balanced            uniform mixture weights (balanced setting) instead of the Dirichlet posterior
 * @param alpha0              symmetric Dirichlet prior of the mixture weights
 * @param beta0               prior strength of the class means (prior precision beta0 Lambda)
 * @param gamma               offset of the shrunk PLDA centroids, c_k = sum_n r_nk y_n / (N_k + gamma)
 * @param supportInDirichlet  count the support rows in the Dirichlet posterior (paper Alg. 1) instead of the
 *                            queries only (code)
 * @param epsilonSoftmax      add float32 machine epsilon in the VB softmax as the authors' code does
 * @param span                the directions step S keeps ({@link Preprocessing#CODE} only)
 */
public record BavardageConfig(Variant variant, Preprocessing preprocessing, double tKm, int nKm, double tVb,
                              double sMax, int nStep, boolean balanced, double alpha0, double beta0, double gamma,
                              boolean supportInDirichlet, boolean epsilonSoftmax, SpanBasis span) {

    /** Float32 machine epsilon (2^-23), the constant of the authors' softmax. */
    public static final double FLOAT32_EPSILON = 0x1.0p-23;
    /** T_vb or s_max of a variant that does not use it (softkmeans: both; vb-no-plda: s_max). */
    static final double UNUSED = 1;

    /** A configuration with the default span basis ({@link SpanBasis#RANK}). */
    public BavardageConfig(Variant variant, Preprocessing preprocessing, double tKm, int nKm, double tVb, double sMax,
                           int nStep, boolean balanced, double alpha0, double beta0, double gamma,
                           boolean supportInDirichlet, boolean epsilonSoftmax) {
        this(variant, preprocessing, tKm, nKm, tVb, sMax, nStep, balanced, alpha0, beta0, gamma, supportInDirichlet,
                epsilonSoftmax, SpanBasis.RANK);
    }

    public BavardageConfig {
        if (span == null) {
            throw new InvalidParameterException("task_span must be given");
        }
        positive("t_km", tKm);
        positive("t_vb", tVb);
        positive("s_max", sMax);
        positive("alpha0", alpha0);
        if (!(beta0 >= 0) || !(gamma >= 0)) {
            throw new InvalidParameterException("beta0 and gamma must be >= 0, got beta0=" + beta0
                    + ", gamma=" + gamma);
        }
        if (nKm < 1 || nStep < 1) {
            throw new InvalidParameterException("n_km and n_step must be >= 1, got n_km=" + nKm + ", n_step=" + nStep);
        }
    }

    private static void positive(String name, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new InvalidParameterException(name + " must be a finite value > 0, got " + v);
        }
    }

    /**
     * Resolves method parameters: preset values, replaced by every override that is not 0 / "preset".
     *
     * @throws InvalidParameterException when the {@code auto} preset leaves T_vb or s_max to be chosen on the base
     *                                   classes, which needs the background: use
     *                                   {@link BavardageMethod#learner(Params, fsil.api.Background)} or
     *                                   {@link AutoTuning#choose}, or give both values
     */
    public static BavardageConfig from(Params p) {
        return from(p, Double.NaN, Double.NaN);
    }

    /**
     * As {@link #from(Params)}, with {@code tVb} and {@code sMax} for the values the {@code auto} preset leaves
     * open and the parameters do not set (values a variant does not use get the placeholder 1).
     */
    static BavardageConfig from(Params p, double tVb, double sMax) {
        Preset preset = p.get(BavardageMethod.PRESET);
        Variant variant = p.get(BavardageMethod.VARIANT);
        double tKm = orPreset(p.get(BavardageMethod.T_KM), preset.tKm());
        double resolvedTVb = orPreset(p.get(BavardageMethod.T_VB), Double.isNaN(preset.tVb()) ? tVb : preset.tVb());
        double resolvedSMax = orPreset(p.get(BavardageMethod.S_MAX),
                Double.isNaN(preset.sMax()) ? sMax : preset.sMax());
        if (Double.isNaN(resolvedTVb) && variant == Variant.SOFTKMEANS) {
            resolvedTVb = UNUSED;
        }
        if (Double.isNaN(resolvedSMax) && variant != Variant.BAVARDAGE) {
            resolvedSMax = UNUSED;
        }
        if (Double.isNaN(resolvedTVb) || Double.isNaN(resolvedSMax)) {
            throw new InvalidParameterException("preset=auto chooses t_vb and s_max on the base classes when the "
                    + "learner is built (BavardageMethod.learner(params, background) or AutoTuning.choose); to "
                    + "resolve a configuration without base data give both t_vb and s_max or a named preset");
        }
        int nStep = p.get(BavardageMethod.N_STEP) == 0 ? preset.nStep() : p.get(BavardageMethod.N_STEP);
        boolean balanced = switch (p.get(BavardageMethod.MIXTURE)) {
            case BALANCED -> true;
            case UNBALANCED -> false;
            case PRESET -> preset.balanced();
        };
        return new BavardageConfig(variant, p.get(BavardageMethod.PREPROCESSING), tKm,
                p.get(BavardageMethod.N_KM), resolvedTVb, resolvedSMax, nStep, balanced, p.get(BavardageMethod.ALPHA0),
                p.get(BavardageMethod.BETA0), p.get(BavardageMethod.GAMMA),
                p.get(BavardageMethod.DIRICHLET_COUNTS) == BavardageMethod.DirichletCounts.ALL, p.get(BavardageMethod.EPS_SOFTMAX),
                p.get(BavardageMethod.TASK_SPAN));
    }

    /** A copy with other T_vb and s_max. */
    BavardageConfig withVb(double newTVb, double newSMax) {
        return new BavardageConfig(variant, preprocessing, tKm, nKm, newTVb, newSMax, nStep, balanced, alpha0, beta0,
                gamma, supportInDirichlet, epsilonSoftmax, span);
    }

    private static double orPreset(double value, double presetValue) {
        return value == 0 ? presetValue : value;
    }
}
