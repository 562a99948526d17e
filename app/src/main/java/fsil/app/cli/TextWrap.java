package fsil.app.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Plain word wrapping for terminal listings and help (lines no longer than the terminal, continuation lines
 * indented). Lines are broken at spaces only, so a file name, a path or a value such as {@code config.json},
 * {@code runs/<protocol>-<time>} or {@code ppca[q=0]} is never split; ANSI colour codes take no columns.
 */
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
        int length = visible(first);
        boolean empty = true;
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            int w = visible(word);
            if (!empty && length + 1 + w > width) {
                out.append(line).append('\n');
                line = new StringBuilder(" ".repeat(indent));
                length = indent;
                empty = true;
            }
            if (!empty) {
                line.append(' ');
                length++;
            } else if (length < indent) {
                line.append(" ".repeat(indent - length));
                length = indent;
            }
            line.append(word);
            length += w;
            empty = false;
        }
        return out.append(line).toString();
    }

    /** {@code text} wrapped at {@code width}: the first line from column 0, the others indented by {@code indent}. */
    static String hanging(String text, int indent, int width) {
        String t = text.strip();
        int space = t.indexOf(' ');
        return space < 0 ? t : wrap(t.substring(0, space + 1), t.substring(space + 1), indent, width);
    }

    /** Lines of a wrapped text, for a caller that joins them itself. */
    static List<String> lines(String first, String text, int indent, int width) {
        return new ArrayList<>(List.of(wrap(first, text, indent, width).split("\n")));
    }

    /**
     * Every line of {@code text} that is longer than {@code width} wrapped at spaces, its continuation lines
     * indented as the line itself; shorter lines (and blank ones) are kept as they are.
     */
    static String fit(String text, int width) {
        StringBuilder out = new StringBuilder();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (visible(line) > width && !line.isBlank()) {
                int indent = line.length() - line.stripLeading().length();
                line = wrap(line.substring(0, indent), line.substring(indent), indent, width)
                        .replace("\n", System.lineSeparator());
            }
            out.append(line);
            if (i < lines.length - 1) {
                out.append(System.lineSeparator());
            }
        }
        return out.toString();
    }

    /** Columns a string takes on a terminal: its length without ANSI escape sequences. */
    static int visible(String s) {
        return s.indexOf('\u001B') < 0 ? s.length() : s.replaceAll("\u001B\\[[0-9;]*[A-Za-z]", "").length();
    }
}
