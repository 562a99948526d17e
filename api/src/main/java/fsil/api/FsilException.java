package fsil.api;

/**
 * An error a user can act on: bad input data, an unknown method or parameter, a protocol the data cannot
 * satisfy. The message says what is wrong and how to fix it; the command-line tool prints it without a
 * stack trace.
 */
public class FsilException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FsilException(String message) {
        super(message);
    }

    public FsilException(String message, Throwable cause) {
        super(message, cause);
    }
}
