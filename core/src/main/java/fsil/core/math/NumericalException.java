package fsil.core.math;

import fsil.api.FsilException;

/**
 * A numerical computation that cannot be completed reliably, e.g. a covariance matrix that is not positive
 * definite even after the bounded jitter escalation. The message states what failed, the sizes and a condition
 * estimate, so a user can tell whether the inputs, the hyperparameters or the method are at fault; the code never
 * falls back silently to a different computation.
 */
public class NumericalException extends FsilException {
    private static final long serialVersionUID = 1L;

    public NumericalException(String message) {
        super(message);
    }

    public NumericalException(String message, Throwable cause) {
        super(message, cause);
    }
}
