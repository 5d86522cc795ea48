package metrics

import "sync"

type HitCounter struct {
	hits map[string]int
}

func NewHitCounter() *HitCounter {
	return &HitCounter{hits: make(map[string]int)}
}

func (c *HitCounter) CountAll(paths []string) {
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		go func(path string) {
			defer wg.Done()
			c.hits[path]++
		}(p)
	}
	wg.Wait()
}

func (c *HitCounter) Get(path string) int {
	return c.hits[path]
}
