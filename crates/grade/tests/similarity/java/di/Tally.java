import java.util.HashMap;
import java.util.Scanner;

public class Tally {
    // Di Lee: tallies the marks of a class.

    static int count = 0;
    static int sum = 0;
    static int max = -1, min = 101;
    static String maxName = "", minName = "";
    static int[] histogram = new int[101];
    static HashMap<String, Integer> bands = new HashMap<String, Integer>();

    static void record(String who, int m) {
        count = count + 1;
        sum = sum + m;
        histogram[m] = histogram[m] + 1;
        if (m > max) { max = m; maxName = who; }
        if (m < min) { min = m; minName = who; }
        String g = m >= 85 ? "HD" : m >= 75 ? "DN" : m >= 65 ? "CR" : m >= 50 ? "PS" : "FL";
        bands.put(g, bands.getOrDefault(g, 0) + 1);
    }

    // The k-th smallest mark (from 0), from the histogram.
    static int kth(int k) {
        int seen = 0;
        for (int m = 0; m <= 100; m = m + 1) {
            seen = seen + histogram[m];
            if (seen > k) return m;
        }
        return 100;
    }

    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        while (sc.hasNextLine()) {
            String l = sc.nextLine();
            Scanner words = new Scanner(l);
            if (!words.hasNext()) continue;
            String who = words.next();
            if (!words.hasNextInt()) { System.err.println("bad line: " + l); continue; }
            int m = words.nextInt();
            if (words.hasNext() || m < 0 || m > 100) { System.err.println("bad line: " + l); continue; }
            record(who, m);
        }
        if (count == 0) {
            System.out.println("no marks");
            System.exit(0);
        }
        double median;
        if (count % 2 == 0) median = (kth(count / 2 - 1) + kth(count / 2)) / 2.0;
        else median = kth(count / 2);
        System.out.println("students: " + count);
        System.out.println("average: " + String.format("%.2f", (double) sum / count));
        System.out.println("median: " + String.format("%.1f", median));
        System.out.println("highest: " + maxName + " " + max);
        System.out.println("lowest: " + minName + " " + min);
        for (String g : new String[] {"HD", "DN", "CR", "PS", "FL"}) {
            System.out.println(g + ": " + bands.getOrDefault(g, 0));
        }
    }
}
