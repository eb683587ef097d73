"""What 05 shows of a batch run: the HTML report and the engines' runs side by side."""
