package fsil.app.cli;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table for the terminal that fits {@link #WIDTH} columns: key columns (what a row is: dataset, setting,
 * method, ...) on the left, value columns on the right, two spaces between columns, no padded title.
 * <ul>
 * <li>A key column with one value in every row is left out and named in the title line instead
 * ({@code fewshot: dataset digits}).</li>
 * <li>A text longer than its column's cap is shortened with an ellipsis, and a legend line below the table gives
 * it in full.</li>
 * <li>Value columns that do not fit beside the keys go to a second (third, ...) block of the same rows, which
 * repeats the key columns.</li>
 * <li>A value column whose every cell ends in " %" shows the unit once, in its header.</li>
 * </ul>
 */
final class TermTable {
    /** Columns of the terminal output. */
    static final int WIDTH = 100;
    /** Whether standard output takes '±' and '…' (else "+-" and ".." are written). */
    static final boolean UNICODE = Charset.defaultCharset().newEncoder().canEncode("±…");
    static final String PLUS_MINUS = UNICODE ? "±" : "+-";
    static final String ELLIPSIS = UNICODE ? "…" : "..";
    private static final String SEP = "  ";

    /** A column: its header, whether it is a key, its cap for texts (0: none) and its cells, one per row. */
    record Column(String header, boolean key, int cap, boolean always, List<String> cells) {
        Column(String header, boolean key, int cap, boolean always) {
            this(header, key, cap, always, new ArrayList<>());
        }
    }

    private final String title;
    private final List<Column> columns = new ArrayList<>();

    TermTable(String title) {
        this.title = title;
    }

    /** A key column, named in the title instead when it has one value in every row. */
    TermTable key(String header, int cap) {
        columns.add(new Column(header, true, cap, false));
        return this;
    }

    /** A key column shown even when it has one value in every row (what each row is: the method). */
    TermTable label(String header, int cap) {
        columns.add(new Column(header, true, cap, true));
        return this;
    }

    TermTable value(String header) {
        columns.add(new Column(header, false, 0, false));
        return this;
    }

    /** Appends a row: one cell per column, in the order the columns were added. */
    void row(String... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + columns.size() + " columns");
        }
        for (int i = 0; i < cells.length; i++) {
            columns.get(i).cells().add(cells[i] == null ? "" : cells[i]);
        }
    }

    /** The table as lines no longer than {@code width} (unless one cell or legend word alone is longer). */
    String render(int width) {
        List<String> titleParts = new ArrayList<>();
        if (title != null && !title.isEmpty()) {
            titleParts.add(title);
        }
        List<Column> keys = new ArrayList<>();
        List<Column> values = new ArrayList<>();
        Map<String, String> legend = new LinkedHashMap<>();
        int rows = columns.isEmpty() ? 0 : columns.get(0).cells().size();
        for (Column c : columns) {
            if (c.key()) {
                List<String> distinct = c.cells().stream().distinct().toList();
                if (distinct.size() == 1 && rows > 0 && !c.always()) {
                    if (!distinct.get(0).isEmpty()) {
                        titleParts.add(c.header() + " " + distinct.get(0));
                    }
                    continue;
                }
                keys.add(c);
            } else {
                values.add(percentInHeader(c));
            }
        }
        Map<String, String> shortOf = shortenings(keys, legend);
        keys.replaceAll(k -> new Column(k.header(), true, k.cap(), true, k.cells().stream()
                .map(s -> shortOf.getOrDefault(s, s)).toList()));
        StringBuilder sb = new StringBuilder();
        if (!titleParts.isEmpty()) {
            String t = title == null || title.isEmpty() ? String.join(", ", titleParts)
                    : titleParts.get(0) + (titleParts.size() > 1 ? ": " + String.join(", ",
                    titleParts.subList(1, titleParts.size())) : "");
            sb.append(TextWrap.wrap("", t, 0, width)).append('\n');
        }
        int keyWidth = 0;
        for (Column k : keys) {
            keyWidth += width(k) + SEP.length();
        }
        List<List<Column>> blocks = new ArrayList<>();
        List<Column> block = new ArrayList<>();
        int used = keyWidth;
        for (Column v : values) {
            int w = width(v) + SEP.length();
            if (!block.isEmpty() && used + w - SEP.length() > width) {
                blocks.add(block);
                block = new ArrayList<>();
                used = keyWidth;
            }
            block.add(v);
            used += w;
        }
        if (!block.isEmpty() || blocks.isEmpty()) {
            blocks.add(block);
        }
        for (int b = 0; b < blocks.size(); b++) {
            if (b > 0) {
                sb.append('\n');
            }
            List<Column> shown = new ArrayList<>(keys);
            shown.addAll(blocks.get(b));
            sb.append(line(shown, -1)).append('\n');
            sb.append(line(shown, -2)).append('\n');
            for (int r = 0; r < rows; r++) {
                sb.append(line(shown, r)).append('\n');
            }
        }
        legend.forEach((abbr, full) -> sb.append(TextWrap.wrap("  " + abbr + " = ", full, 4, width)).append('\n'));
        return sb.toString();
    }

    /** Header (row -1), rule (row -2) or a row: keys left-aligned, values right-aligned, no trailing spaces. */
    private static String line(List<Column> shown, int row) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < shown.size(); i++) {
            Column c = shown.get(i);
            int w = width(c);
            String text = row == -1 ? c.header() : row == -2 ? "-".repeat(w) : c.cells().get(row);
            if (i > 0) {
                sb.append(SEP);
            }
            String pad = " ".repeat(Math.max(0, w - text.length()));
            sb.append(c.key() ? text + pad : pad + text);
        }
        return sb.toString().stripTrailing();
    }

    private static int width(Column c) {
        int w = c.header().length();
        for (String s : c.cells()) {
            w = Math.max(w, s.length());
        }
        return w;
    }

    /**
     * Shortenings of the texts of the key columns longer than their column's cap: the text cut to the cap,
     * ending in an ellipsis, numbered when two texts would otherwise look the same or like another text. One text
     * is shortened alike in every column (a method and a baseline), and each shortening goes to the legend.
     */
    private static Map<String, String> shortenings(List<Column> keys, Map<String, String> legend) {
        java.util.Set<String> all = new java.util.HashSet<>();
        keys.forEach(k -> all.addAll(k.cells()));
        Map<String, String> shortOf = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (Column c : keys) {
            for (String s : c.cells()) {
                if (c.cap() > 0 && s.length() > c.cap() && !shortOf.containsKey(s)) {
                    String a = s.substring(0, c.cap() - ELLIPSIS.length()) + ELLIPSIS;
                    seen.merge(a, 1, Integer::sum);
                    shortOf.put(s, a);
                }
            }
        }
        int n = 0;
        for (Map.Entry<String, String> e : shortOf.entrySet()) {
            String a = e.getValue();
            if (seen.get(a) > 1 || all.contains(a)) {
                String num = Integer.toString(++n);
                a = a.substring(0, a.length() - ELLIPSIS.length() - num.length()) + ELLIPSIS + num;
            }
            e.setValue(a);
            legend.put(a, e.getKey());
        }
        return shortOf;
    }

    /** A column whose cells all end in " %" (or are empty) with the unit moved into its header. */
    private static Column percentInHeader(Column c) {
        boolean percent = c.cells().stream().anyMatch(s -> !s.isEmpty())
                && c.cells().stream().allMatch(s -> s.isEmpty() || s.endsWith(" %"));
        if (!percent) {
            return c;
        }
        return new Column(c.header() + " %", false, 0, false, c.cells().stream()
                .map(s -> s.isEmpty() ? s : s.substring(0, s.length() - 2)).toList());
    }
}
