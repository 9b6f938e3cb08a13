import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Scanner;

/**
 * Marks report: reads "name mark" lines and summarises them.
 * Ann Smith, lab 4.
 */
public class Marks {

    /** One student's result. */
    static class Result {
        String name;
        int mark;

        Result(String name, int mark) {
            this.name = name;
            this.mark = mark;
        }
    }

    /** Parses a line, or returns null when it is not "name mark". */
    static Result parse(String line) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length != 2) {
            return null;
        }
        int mark;
        try {
            mark = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (mark < 0 || mark > 100) {
            return null;
        }
        return new Result(parts[0], mark);
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        List<Result> results = new ArrayList<>();
        int lineNo = 0;
        while (in.hasNextLine()) {
            String line = in.nextLine();
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            Result r = parse(line);
            if (r == null) {
                System.err.println("line " + lineNo + ": not a name and a mark: " + line);
                continue;
            }
            results.add(r);
        }
        if (results.isEmpty()) {
            System.out.println("no marks");
            return;
        }
        int total = 0;
        Result best = results.get(0);
        Result worst = results.get(0);
        List<Integer> marks = new ArrayList<>();
        String[] bands = {"HD", "DN", "CR", "PS", "FL"};
        int[] counts = new int[bands.length];
        for (Result r : results) {
            total += r.mark;
            marks.add(r.mark);
            if (r.mark > best.mark) {
                best = r;
            }
            if (r.mark < worst.mark) {
                worst = r;
            }
            String b;
            if (r.mark >= 85) {
                b = "HD";
            } else if (r.mark >= 75) {
                b = "DN";
            } else if (r.mark >= 65) {
                b = "CR";
            } else if (r.mark >= 50) {
                b = "PS";
            } else {
                b = "FL";
            }
            for (int i = 0; i < bands.length; i++) {
                if (bands[i].equals(b)) {
                    counts[i]++;
                }
            }
        }
        System.out.println("students: " + results.size());
        System.out.printf("average: %.2f%n", (double) total / results.size());
        List<Integer> sorted = new ArrayList<>(marks);
        Collections.sort(sorted);
        int n = sorted.size();
        double middle;
        if (n % 2 == 1) {
            middle = sorted.get(n / 2);
        } else {
            middle = (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
        }
        System.out.printf("median: %.1f%n", middle);
        System.out.println("highest: " + best.name + " " + best.mark);
        System.out.println("lowest: " + worst.name + " " + worst.mark);
        for (int i = 0; i < bands.length; i++) {
            System.out.println(bands[i] + ": " + counts[i]);
        }
    }
}
