import express from 'express';

export { express };
