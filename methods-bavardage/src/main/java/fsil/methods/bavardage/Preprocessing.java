package fsil.methods.bavardage;

/**
 * How the features are whitened before the PLDA step (the authors' {@code MESV} and the paper's Eq. 6-7).
 *
 * <p>Both first centre every vector on the mean of all base features and L2-normalise it. They then differ in:
 * <ul>
 *   <li>the within-class scatter: {@link #CODE} uses the code's unnormalised per-class scatter sums, each
 *   divided by its Frobenius norm, averaged, rescaled by the mean Frobenius norm, plus 1e-6 I; {@link #PAPER}
 *   uses Eq. 6, the pooled within-class covariance (sum of outer products divided by the number of base
 *   samples), no ridge. The code's scale grows with the number of images per base class, the paper's does
 *   not, so T_vb and s_max have to be tuned separately for each;</li>
 *   <li>where the whitening happens: {@link #CODE} projects each task on its own span (an N-dimensional,
 *   lossless change of basis) and whitens with the inverse of the base precision restricted to that span,
 *   (U^T S_w^-1 U)^-1, clamping the gains at s_max in the eigenbasis of that restricted matrix; {@link #PAPER}
 *   whitens every sample in the full D-dimensional eigenbasis of S_w with gains min(lambda^-1/2, s_max).</li>
 * </ul>
 * Without clamping (s_max large) and with the same S_w the two give whitened data with the same Gram matrix
 * X S_w^-1 X^T, so every later step (PLDA, VB) gives the same result: the choice of eigenbasis in which the
 * clamp acts and the scale of S_w are the only differences.
 */
public enum Preprocessing {
    /** The authors' code (MESV): base-mean centring, L2, per-task span, restricted whitening. */
    CODE("code"),
    /** The paper's description (Eq. 6-7): base-mean centring, L2, global sphering by the base covariance. */
    PAPER("paper");

    private final String id;

    Preprocessing(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
