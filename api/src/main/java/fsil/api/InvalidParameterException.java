package fsil.api;

/** An unknown parameter name, or a value outside a parameter's domain. */
public class InvalidParameterException extends FsilException {
    private static final long serialVersionUID = 1L;

    public InvalidParameterException(String message) {
        super(message);
    }
}
