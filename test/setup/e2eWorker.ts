import { pointAtWorkerStack } from '../e2e/workerStack'

pointAtWorkerStack()
