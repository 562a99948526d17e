package fsil.eval.report;

/** Escaping of text for the places it lands in an HTML page. */
public final class Html {
    private Html() {
    }

    /** Text content of an element. */
    public static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A quoted attribute value, e.g. {@code id="..."}. */
    public static String attribute(String s) {
        return '"' + text(s) + '"';
    }
}
