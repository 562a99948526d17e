package fsil.core.linalg;

import java.util.Arrays;

/**
 * The diagonal jitter {@link Cholesky} adds to a symmetric matrix A, as a sequence of attempts. Each attempt
 * factors A + j_k m I, where m = mean(diag(A)) and j_k is the k-th relative jitter; the first attempt that
 * succeeds wins, and when all fail {@link Cholesky} throws a {@link fsil.core.math.NumericalException}. The
 * sequence is bounded, so there is no open-ended loop and no silent fallback.
 *
 * <p>Two families:
 * <ul>
 *   <li>{@link #fixed(double, int)}: always adds j m (the DESIGN §7 policy: "a fixed relative jitter, escalated a
 *   bounded number of times"); it regularises nearly singular kernel matrices consistently, at the price of a
 *   bias of relative size j.</li>
 *   <li>{@link #onFailure(double, int)}: first tries A exactly and only then the escalation; use it when the
 *   result must be exactly the factor of A (closed-form gradients checked by finite differences: a jitter that
 *   scales with mean(diag A) contributes its own, usually ignored, derivative).</li>
 * </ul>
 * Escalation multiplies the relative jitter by 10 per failed attempt.
 */
public final class JitterPolicy {
    /** 1e-6 x mean diagonal, escalated x10 up to 4 times (1e-2) before giving up. */
    public static final JitterPolicy DEFAULT = fixed(1e-6, 4);

    private static final double GROWTH = 10.0;
    private final double[] relative;

    private JitterPolicy(double[] relative) {
        this.relative = relative;
    }

    /** Always adds {@code relative} x mean diagonal; on failure x10, at most {@code maxEscalations} times. */
    public static JitterPolicy fixed(double relative, int maxEscalations) {
        check(relative, maxEscalations);
        double[] r = new double[maxEscalations + 1];
        for (int k = 0; k <= maxEscalations; k++) {
            r[k] = relative * Math.pow(GROWTH, k);
        }
        return new JitterPolicy(r);
    }

    /** First the exact matrix; on failure {@code relative} x mean diagonal, then x10 up to maxEscalations times. */
    public static JitterPolicy onFailure(double relative, int maxEscalations) {
        check(relative, maxEscalations);
        double[] r = new double[maxEscalations + 2];
        for (int k = 0; k <= maxEscalations; k++) {
            r[k + 1] = relative * Math.pow(GROWTH, k);
        }
        return new JitterPolicy(r);
    }

    /** One attempt on the exact matrix, no jitter: for matrices that are well conditioned by construction. */
    public static JitterPolicy none() {
        return new JitterPolicy(new double[]{0.0});
    }

    private static void check(double relative, int maxEscalations) {
        if (!(relative > 0) || Double.isInfinite(relative)) {
            throw new IllegalArgumentException("relative jitter must be positive and finite, got " + relative);
        }
        if (maxEscalations < 0 || maxEscalations > 20) {
            throw new IllegalArgumentException("maxEscalations must be in [0, 20], got " + maxEscalations);
        }
    }

    /** Number of attempts. */
    public int attempts() {
        return relative.length;
    }

    /** Relative jitter of attempt {@code k} (0-based). */
    public double relativeJitter(int k) {
        return relative[k];
    }

    @Override
    public String toString() {
        return "JitterPolicy" + Arrays.toString(relative);
    }
}
