package fsil.api;

/**
 * An error a user can act on: bad input data, an unknown method or parameter, a protocol the data cannot
 * satisfy. The message says what is wrong and how to fix it; the command-line tool prints it without a
 * stack trace. The message is always one line: control characters that reach it (a file name, a label or a run
 * file's field that holds a line break) are written as escapes ({@code \n}, {@code \u0007}).
 */
public class FsilException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FsilException(String message) {
        super(oneLine(message));
    }

    public FsilException(String message, Throwable cause) {
        super(oneLine(message), cause);
    }

    /** The text with every control character escaped, so it prints as one line. */
    public static String oneLine(String text) {
        if (text == null || text.chars().noneMatch(c -> c != '\t' && Character.isISOControl(c))) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append('\t');
                default -> {
                    if (Character.isISOControl(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
