package fsil.app.cli;

import java.util.ArrayList;
import java.util.List;

/** Plain word wrapping for terminal listings (lines no longer than the terminal, continuation lines indented). */
final class TextWrap {
    private TextWrap() {
    }

    /**
     * {@code first} + text, wrapped at {@code width} columns; continuation lines start with {@code indent} spaces.
     * A word longer than the line is kept whole.
     */
    static String wrap(String first, String text, int indent, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!empty && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line = new StringBuilder(" ".repeat(indent));
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            } else if (line.length() < indent) {
                line.append(" ".repeat(indent - line.length()));
            }
            line.append(word);
            empty = false;
        }
        return out.append(line).toString();
    }

    /** Lines of a wrapped text, for a caller that joins them itself. */
    static List<String> lines(String first, String text, int indent, int width) {
        return new ArrayList<>(List.of(wrap(first, text, indent, width).split("\n")));
    }
}
