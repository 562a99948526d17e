package fsil.methods.bavardage;

/**
 * Which basis of the task's span step S keeps ({@link Preprocessing#CODE} only; the authors' step S).
 *
 * <ul>
 *   <li>{@link #RANK} (default): the directions the task's rows numerically span (r = numerical rank,
 *   {@link TaskSpan#RELATIVE_TOLERANCE}). The restricted whitening and its s_max clamp act in the eigenbasis of
 *   U_r^T S_w^-1 U_r.</li>
 *   <li>{@link #AUTHORS}: min(N, D) directions, as the authors' thin SVD of X^T keeps: when the rows span fewer
 *   (rank-deficient tasks: duplicated rows, or features with constant coordinates such as the corner pixels of
 *   {@code digits}), the span basis is completed with orthonormal directions the data do not reach (coordinates
 *   0). Without clamping this changes nothing (the whitened Gram matrix is X S_w^-1 X^T either way); with the clamp
 *   the restricted precision couples the added directions, so the clamp acts in another basis. With N &gt;= D the
 *   completed basis is all of R^D and the whitening is the global one with the code's S_w (basis-free); with
 *   N &lt; D the added directions are arbitrary in the authors' code (whatever the SVD returns for zero singular
 *   values), here the trailing columns of a Householder QR of the span basis, so only the N &gt;= D case is
 *   reproducible.</li>
 * </ul>
 */
public enum SpanBasis {
    /** The numerical rank of the task's rows (default). */
    RANK,
    /** min(N, D) directions, as the authors' code. */
    AUTHORS
}
