package fsil.api;

/** Input data that cannot be used as given: NaN/Inf features, mismatched shapes, malformed files. */
public class InvalidDataException extends FsilException {
    private static final long serialVersionUID = 1L;

    public InvalidDataException(String message) {
        super(message);
    }

    public InvalidDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
